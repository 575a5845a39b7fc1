# Every installed header compiles on its own for a consumer that has only
# the package's include directory (no sources, no generated readers).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(include_dir ${PREFIX}/${INCLUDEDIR}/ember)
file(GLOB_RECURSE headers RELATIVE ${include_dir} ${include_dir}/*.h)
list(LENGTH headers count)
if(count LESS 20)
  message(FATAL_ERROR "only ${count} headers under ${include_dir}")
endif()
# Exactly the listed public headers (cmake/install.cmake,
# EMBER_PUBLIC_HEADERS): nothing internal slips in, nothing listed is lost.
file(READ ${LIST} listed)
list(SORT listed)
list(SORT headers)
if(NOT headers STREQUAL listed)
  set(extra ${headers})
  list(REMOVE_ITEM extra ${listed})
  set(missing ${listed})
  list(REMOVE_ITEM missing ${headers})
  message(FATAL_ERROR "installed headers differ from EMBER_PUBLIC_HEADERS.\n"
          "installed, not listed: ${extra}\nlisted, not installed: ${missing}")
endif()
foreach(internal runtime/executor/program_validation.h runtime/executor/tensor_data_kind.h
        runtime/executor/operator_name.h extension/data_loader/range_check.h
        extension/llm/tokenizer/formats.h extension/llm/tokenizer/bpe_core.h)
  if(EXISTS ${include_dir}/${internal})
    message(FATAL_ERROR "internal header ${internal} was installed")
  endif()
endforeach()
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
foreach(h ${headers})
  string(MAKE_C_IDENTIFIER ${h} name)
  file(WRITE ${SCRATCH}/${name}.cpp "#include \"${h}\"\n")
  pkg_run(out ${CXX} -std=c++17 -fsyntax-only -Wall -I${include_dir}
          ${SCRATCH}/${name}.cpp)
endforeach()
message(STATUS "${count} headers compile on their own")
