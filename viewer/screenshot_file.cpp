#include "viewer/screenshot_file.hpp"

#include <stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include "trace_format/file_create.hpp"

namespace legato::viewer {

std::string check_writable(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
    return S_ISDIR(st.st_mode) ? std::strerror(EISDIR) : "";  // a device or FIFO: written as it is
  try {
    const trace::NewFile f = trace::create_beside(path);
    ::close(f.fd);
    ::unlink(f.temp_path.c_str());
  } catch (const std::system_error& e) {
    return e.code().message();
  }
  return "";
}

std::string write_png_file(const std::string& path, int width, int height,
                           const unsigned char* rgba) {
  std::vector<unsigned char> png;
  const auto append = [](void* to, void* data, int size) {
    auto* bytes = static_cast<unsigned char*>(data);
    static_cast<std::vector<unsigned char>*>(to)->insert(
        static_cast<std::vector<unsigned char>*>(to)->end(), bytes, bytes + size);
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba, width * 4))
    return "the PNG could not be encoded";
  const int fd = trace::open_replacing(path);
  if (fd < 0) return std::strerror(-fd);
  int err = 0;
  for (size_t done = 0; done < png.size() && err == 0;) {
    const ssize_t n = ::write(fd, png.data() + done, png.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) err = n < 0 ? errno : ENOSPC;
    if (n > 0) done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && err == 0) err = errno;
  return err == 0 ? "" : std::strerror(err);
}

std::string screenshot_error(const std::string& path, const std::string& why) {
  return "cannot write the screenshot " + path + ": " + why +
         "; give a path in a directory you can write to";
}

}  // namespace legato::viewer
