// The report's data compressed as a gzip stream, which the page inflates
// with the browser's DecompressionStream("gzip").
#pragma once

#include <string>
#include <string_view>

namespace legato::html {

// Throws ReportError should the compressor fail.
std::string gzip(std::string_view in);

}  // namespace legato::html
