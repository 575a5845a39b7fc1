# Every installed header compiles on its own for a consumer that has only
# the package's include directory (no sources, no generated readers).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(include_dir ${PREFIX}/${INCLUDEDIR}/ember)
file(GLOB_RECURSE headers RELATIVE ${include_dir} ${include_dir}/*.h)
list(LENGTH headers count)
if(count LESS 20)
  message(FATAL_ERROR "only ${count} headers under ${include_dir}")
endif()
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
foreach(h ${headers})
  string(MAKE_C_IDENTIFIER ${h} name)
  file(WRITE ${SCRATCH}/${name}.cpp "#include \"${h}\"\n")
  pkg_run(out ${CXX} -std=c++17 -fsyntax-only -Wall -I${include_dir}
          ${SCRATCH}/${name}.cpp)
endforeach()
message(STATUS "${count} headers compile on their own")
