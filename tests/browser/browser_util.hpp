// What both browser drivers need: the file:// URL of a path, and base64
// decoding of the screenshots the browsers send.
#pragma once

#include <string>

namespace legato::testing {

// file:// URL of path made absolute, bytes other than unreserved ones and '/'
// percent-encoded (a '#', '?', '%' or space in a name would cut the URL).
std::string file_url(const std::string& path);
std::string decode_base64(const std::string& in);

}  // namespace legato::testing
