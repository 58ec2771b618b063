#include "arrays/python/user_site.hpp"

#include <Python.h>
#include <frameobject.h>

#include <string_view>

namespace legato::python {
namespace {

std::string& package_dir() {
  static std::string dir;
  return dir;
}

bool in_package(std::string_view file) {
  const std::string& dir = package_dir();
  return !dir.empty() && file.substr(0, dir.size()) == dir;
}

// A frame's file name as bytes: its UTF-8 (cached by Python, the common
// case), or, for a name with bytes that are not UTF-8 (Python decodes those
// to lone surrogates), the bytes it came from. False if neither works.
bool file_bytes(PyObject* name, std::string& out) {
  Py_ssize_t n = 0;
  if (const char* text = PyUnicode_AsUTF8AndSize(name, &n)) {
    out.assign(text, static_cast<size_t>(n));
    return true;
  }
  PyErr_Clear();
  PyObject* raw = PyUnicode_EncodeFSDefault(name);  // new reference
  if (raw == nullptr) {
    PyErr_Clear();
    return false;
  }
  char* bytes = nullptr;
  const bool ok = PyBytes_AsStringAndSize(raw, &bytes, &n) == 0;
  if (ok) out.assign(bytes, static_cast<size_t>(n));
  Py_DECREF(raw);
  if (!ok) PyErr_Clear();
  return ok;
}

}  // namespace

void set_package_dir(std::string dir) {
  if (!dir.empty() && dir.back() != '/') dir += '/';
  package_dir() = std::move(dir);
}

UserSite user_site() {
  UserSite site;
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  std::string file;
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);  // new reference
    const bool ours = !file_bytes(code->co_filename, file) || in_package(file);
    if (!ours) {
      site.file = file;
      site.line = static_cast<uint32_t>(PyFrame_GetLineNumber(frame));
    }
    Py_DECREF(code);
    if (!ours) {
      Py_DECREF(frame);
      break;
    }
    PyFrameObject* back = PyFrame_GetBack(frame);  // new reference
    Py_DECREF(frame);
    frame = back;
  }
  return site;
}

}  // namespace legato::python
