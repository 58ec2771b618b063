// `legate prog.py`: Python programs run under the interpreter Legato's Python
// front end was built for, with the legato package on PYTHONPATH.
#pragma once

#include <string>

namespace legato::driver {

bool is_python_program(const std::string& program);

// The interpreter to run a Python program with, after putting the legato
// package on PYTHONPATH; throws std::runtime_error saying what is missing.
std::string prepare_python();

}  // namespace legato::driver
