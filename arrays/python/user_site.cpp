#include "arrays/python/user_site.hpp"

#include <Python.h>
#include <frameobject.h>

namespace legato::python {
namespace {

std::string& package_dir() {
  static std::string dir;
  return dir;
}

bool in_package(const char* file) {
  const std::string& dir = package_dir();
  return !dir.empty() && std::string_view(file).substr(0, dir.size()) == dir;
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
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);  // new reference
    const char* file = PyUnicode_AsUTF8(code->co_filename);
    const bool ours = file == nullptr || in_package(file);
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
  if (PyErr_Occurred()) PyErr_Clear();  // a file name that is not UTF-8
  return site;
}

}  // namespace legato::python
