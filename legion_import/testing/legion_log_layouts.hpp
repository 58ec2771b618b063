// Header lines of older Legion Prof log layouts (legion_log_layouts.cpp),
// for the test log writer; not installed.
#pragma once

#include <string>
#include <vector>

namespace legato::legion::testing {

const std::vector<std::string>& layouts_2020();
const std::vector<std::string>& layouts_2023();

}  // namespace legato::legion::testing
