# `cmake --install` into a temporary prefix, then the installed package imports, from outside the
# build tree, the installed libvkcompute.so.1 through its generated _library_path.py.
# -DBUILD_DIR=<build tree> -DPREFIX=<temporary prefix> -DPYTHON=<interpreter> -DPACKAGE_DIR=<relative dir>
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(site ${PACKAGE_DIR})
if(NOT IS_ABSOLUTE ${site})
  set(site ${PREFIX}/${site})
endif()
# Runs a Python snippet as a program that knows nothing of the build tree would (argv[1] the
# installed package's folder, argv[2] the prefix); `failure` ends the test where it fails.
function(check_installed snippet failure)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH --unset=VKCOMPUTE_LIBRARY ${PYTHON} -c "${snippet}" ${site} ${PREFIX}
    WORKING_DIRECTORY ${PREFIX}
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${failure}")
  endif()
endfunction()

check_installed(
  "import os, sys; sys.path.insert(0, sys.argv[1]); import vkcompute; \
from vkcompute import _library_path; \
assert os.path.dirname(vkcompute.__file__) == os.path.join(sys.argv[1], 'vkcompute'), vkcompute.__file__; \
assert vkcompute.library_path == _library_path.LIBRARY_PATH, vkcompute.library_path; \
assert vkcompute.library_path.startswith(sys.argv[2]), vkcompute.library_path; \
assert os.path.isfile(vkcompute.library_path); print('installed:', vkcompute.__file__, vkcompute.library_path)"
  "the installed package did not import its installed library")
# Where MPI was found: libvkcompute_mpi.so.1 and vkc_mpi.h installed beside libvkcompute's, and the
# installed vkcompute.mpi loads that library.
if(EXISTS ${BUILD_DIR}/python/vkcompute/libvkcompute_mpi.so.1)
  check_installed(
    "import os, sys; sys.path.insert(0, sys.argv[1]); import vkcompute, vkcompute.mpi as m; lib = m._library(); \
beside = os.path.join(os.path.dirname(vkcompute.library_path), 'libvkcompute_mpi.so.1'); \
assert lib._name == beside and os.path.isfile(beside), lib._name; \
assert os.path.isfile(os.path.join(sys.argv[2], 'include', 'vkc', 'vkc_mpi.h')); print('installed:', lib._name)"
    "the installed vkcompute.mpi did not load the installed libvkcompute_mpi.so.1")
endif()
file(REMOVE_RECURSE ${PREFIX})
