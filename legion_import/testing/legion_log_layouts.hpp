// Header lines of other Legion Prof log layouts (legion_log_layouts.cpp),
// for the test log writer; not installed.
#pragma once

#include <string>
#include <vector>

namespace legato::legion::testing {

const std::vector<std::string>& layouts_2020();
const std::vector<std::string>& layouts_2023();
// Format 1008 as the real logs have it, and 1006 derived from it.
const std::vector<std::string>& layouts_1008();
const std::vector<std::string>& layouts_1006();
// Formats 1009 to 1012, as Legion's serializer of each writes its preamble.
const std::vector<std::string>& layouts_1009();
const std::vector<std::string>& layouts_1010();
const std::vector<std::string>& layouts_1011();
const std::vector<std::string>& layouts_1012();

}  // namespace legato::legion::testing
