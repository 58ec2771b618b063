#include "viewer/screenshot_file.hpp"

#include <stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include "base/file_create.hpp"

namespace legato::viewer {

std::string check_writable(const std::string& path) {
  // A FIFO would block the write until someone reads it: what is not a
  // regular file is refused, saying what it is.
  if (const std::string kind = base::special_file(path); !kind.empty())
    return kind == "a directory" ? std::strerror(EISDIR) : base::not_a_file_reason(kind);
  try {
    const base::NewFile f = base::create_beside(path);
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
  if (const std::string kind = base::special_file(path); !kind.empty())
    return base::not_a_file_reason(kind);
  const int err = base::write_replacing(
      path, std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
  return err == 0 ? "" : std::strerror(err);
}

std::string screenshot_error(const std::string& path, const std::string& why) {
  return "cannot write the screenshot " + path + ": " + why +
         "; give a path in a directory you can write to";
}

}  // namespace legato::viewer
