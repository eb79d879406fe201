// The Python interpreter that has NumPy: python3 on PATH, else Debian's /usr/bin/python3 (a
// python3 of pyenv or a virtual environment may come first on PATH without NumPy).
#pragma once

#include <cstdlib>
#include <string>

namespace vkc::test {

/// "python3" or "/usr/bin/python3", whichever imports numpy; "" when neither does.
inline std::string numpy_python() {
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    const std::string probe = std::string(python) + " -c 'import numpy' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  return "";
}

}  // namespace vkc::test
