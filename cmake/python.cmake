# The Python module (python/, README "Python"): built when NPUSIM_PYTHON is on (the default) and
# pybind11 (Debian's pybind11-dev) and the headers of the interpreter (python3-dev) are found.
# The interpreter is Debian's /usr/bin/python3 unless Python3_EXECUTABLE is given: a pyenv or
# conda python3 earlier on PATH would otherwise get a module Debian's python3 cannot import.
# Sets NPUSIM_PYTHON_FOUND, and NPUSIM_PYTHON_TESTS when that interpreter has numpy and pytest.
set(NPUSIM_PYTHON_FOUND OFF)
set(NPUSIM_PYTHON_TESTS OFF)
set(NPUSIM_PYTHON_INSTALL_DIR "lib/python3/dist-packages" CACHE STRING
    "where `cmake --install` puts the Python package npusim, relative to the prefix (Debian's layout)")
if(NOT NPUSIM_PYTHON)
  message(STATUS "Python module: off (NPUSIM_PYTHON=OFF)")
  return()
endif()
if(NPUSIM_SANITIZE)
  # An ASan-instrumented extension cannot be loaded into an uninstrumented python3.
  message(STATUS "Python module: not built in a sanitizer build")
  return()
endif()
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "the Python the module is built for")
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
if(NOT Python3_Development.Module_FOUND)
  message(STATUS "Python module: not built: no Python headers for ${Python3_EXECUTABLE} "
                 "(apt-get install python3-dev; scripts/setup.sh installs it)")
  return()
endif()
find_package(pybind11 CONFIG QUIET)
if(NOT pybind11_FOUND)
  message(STATUS "Python module: not built: pybind11 not found (apt-get install pybind11-dev; "
                 "scripts/setup.sh installs it)")
  return()
endif()
set(NPUSIM_PYTHON_FOUND ON)
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy, pytest"
                RESULT_VARIABLE npusim_py_missing OUTPUT_QUIET ERROR_QUIET)
if(npusim_py_missing EQUAL 0)
  set(NPUSIM_PYTHON_TESTS ON)
  message(STATUS "Python module: building npusim for ${Python3_EXECUTABLE} (${Python3_VERSION}), with its pytest tests")
else()
  message(STATUS "Python module: building npusim for ${Python3_EXECUTABLE} (${Python3_VERSION}); its tests are "
                 "off: that python3 lacks numpy or pytest (apt-get install python3-numpy python3-pytest)")
endif()
