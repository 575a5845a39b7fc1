# Selective build: which kernel source files register which operators, and
# the portable kernel sources a list of operators needs.
#
# The map is read from the sources themselves: every kernel file registers
# its operators with EMBER_REGISTER_KERNEL("<namespace>::<name>.<overload>",
# ...) or EMBER_REGISTER_PREPARED_KERNEL(...), the name a string literal
# right after the parenthesis (a line break after it is fine). Prim ops name theirs through constants, so for
# kernels/prim_ops every "<namespace>::..." literal counts; prim ops are
# always built and never selected. test/selective_build checks this scan
# against the registry that the linked kernels really fill.
#
# Used three ways:
#   include()d by kernels/CMakeLists.txt for the selection;
#   cmake -DEMBER_SOURCE_DIR=<repo> -DEMBER_KERNEL_TABLE=<out.inc> -P <this>
#     writes the table that ember_list_ops prints (build time);
#   include()d by the selection unit test (test/selective_build).

# Fused kernels (runtime/kernel/fusion_registry.h) register fusion patterns,
# not operators. One row per file: the operators that must all be selected
# for it to be built (its patterns need at least these two).
set(EMBER_FUSED_KERNEL_NEEDS
    "kernels/portable/fused_convolution.cpp=aten::convolution.out,aten::_native_batch_norm_legit_no_training.out")

# Sets <out_ops> and <out_files> to two lists of the same length: every
# registered operator and the file (relative to <root>) that registers it.
function(ember_kernel_registrations root out_ops out_files)
  file(GLOB op_files RELATIVE "${root}" "${root}/kernels/portable/op_*.cpp"
       "${root}/kernels/llm/op_*.cpp")
  file(GLOB prim_files RELATIVE "${root}" "${root}/kernels/prim_ops/*.cpp")
  set(ops)
  set(files)
  foreach(file IN LISTS op_files)
    file(READ "${root}/${file}" text)
    string(REGEX MATCHALL "EMBER_REGISTER_(PREPARED_)?KERNEL\\([ \t\r\n]*\"[^\"]+\"" regs "${text}")
    foreach(reg IN LISTS regs)
      string(REGEX REPLACE ".*\"([^\"]+)\"" "\\1" op "${reg}")
      list(APPEND ops "${op}")
      list(APPEND files "${file}")
    endforeach()
  endforeach()
  foreach(file IN LISTS prim_files)
    file(STRINGS "${root}/${file}" lines REGEX "\"[A-Za-z_][A-Za-z_0-9]*::[^\"]+\"")
    foreach(line IN LISTS lines)
      string(REGEX MATCHALL "\"[A-Za-z_][A-Za-z_0-9]*::[^\"]+\"" literals "${line}")
      foreach(literal IN LISTS literals)
        string(REPLACE "\"" "" op "${literal}")
        list(APPEND ops "${op}")
        list(APPEND files "${file}")
      endforeach()
    endforeach()
  endforeach()
  set(${out_ops} "${ops}" PARENT_SCOPE)
  set(${out_files} "${files}" PARENT_SCOPE)
endfunction()

# Reads an operator list file: one operator per line, '#' starts a comment,
# blank lines ignored (what ember_list_ops --output writes).
function(ember_read_ops_file path out_ops)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "operator list '${path}' does not exist")
  endif()
  file(STRINGS "${path}" lines)
  set(ops)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line)
      list(APPEND ops "${line}")
    endif()
  endforeach()
  set(${out_ops} "${ops}" PARENT_SCOPE)
endfunction()

# The portable kernel sources (absolute paths) for the operators <ops>:
# each operator's file, and each fused kernel whose operators are all
# selected. Prim ops need no file (always built). <out_unknown>: the
# operators no kernel file registers.
function(ember_select_kernel_sources root ops out_sources out_unknown)
  ember_kernel_registrations("${root}" all_ops all_files)
  set(selected_files)
  set(unknown)
  foreach(op IN LISTS ops)
    list(FIND all_ops "${op}" index)
    if(index EQUAL -1)
      list(APPEND unknown "${op}")
      continue()
    endif()
    list(GET all_files ${index} file)
    if(NOT file MATCHES "^kernels/prim_ops/")
      list(APPEND selected_files "${file}")
    endif()
  endforeach()
  foreach(row IN LISTS EMBER_FUSED_KERNEL_NEEDS)
    string(REGEX REPLACE "=.*" "" file "${row}")
    string(REGEX REPLACE ".*=" "" needs "${row}")
    string(REPLACE "," ";" needs "${needs}")
    set(all_selected TRUE)
    foreach(op IN LISTS needs)
      if(NOT op IN_LIST ops)
        set(all_selected FALSE)
      endif()
    endforeach()
    if(all_selected)
      list(APPEND selected_files "${file}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES selected_files)
  list(SORT selected_files)
  set(sources)
  foreach(file IN LISTS selected_files)
    list(APPEND sources "${root}/${file}")
  endforeach()
  set(${out_sources} "${sources}" PARENT_SCOPE)
  set(${out_unknown} "${unknown}" PARENT_SCOPE)
endfunction()

# Every fused_*.cpp needs a row in EMBER_FUSED_KERNEL_NEEDS, or a selective
# build would silently leave it out.
function(ember_check_fused_rows root)
  file(GLOB fused RELATIVE "${root}" "${root}/kernels/portable/fused_*.cpp")
  foreach(file IN LISTS fused)
    if(NOT EMBER_FUSED_KERNEL_NEEDS MATCHES "(^|;)${file}=")
      message(FATAL_ERROR "${file} has no row in EMBER_FUSED_KERNEL_NEEDS "
              "(kernels/selective_build.cmake)")
    endif()
  endforeach()
endfunction()

# The operators of a selective build, from the cache variables
#   EMBER_SELECT_OPS       operators ("aten::add.out;aten::mul.out")
#   EMBER_SELECT_OPS_FILE  a file of operators (ember_list_ops --output)
#   EMBER_SELECT_OPS_FROM  programs (.pte/.bpte), read by EMBER_LIST_OPS
# all three together (a union). <out_selective>: whether any is set (none
# set: every operator is built; set but selecting none: only prim ops).
function(ember_selected_ops out_ops out_selective)
  set(EMBER_SELECT_OPS "" CACHE STRING
      "Selective build: operators to build (name.overload, ;-separated)")
  set(EMBER_SELECT_OPS_FILE "" CACHE FILEPATH
      "Selective build: a file of operators, one per line")
  set(EMBER_SELECT_OPS_FROM "" CACHE STRING
      "Selective build: .pte/.bpte programs whose operators to build (;-separated)")
  set(EMBER_LIST_OPS "" CACHE FILEPATH
      "ember_list_ops from a default build, for EMBER_SELECT_OPS_FROM")
  set(ops ${EMBER_SELECT_OPS})
  if(EMBER_SELECT_OPS_FILE)
    ember_read_ops_file("${EMBER_SELECT_OPS_FILE}" file_ops)
    list(APPEND ops ${file_ops})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${EMBER_SELECT_OPS_FILE}")
  endif()
  if(EMBER_SELECT_OPS_FROM)
    if(NOT EXISTS "${EMBER_LIST_OPS}")
      message(FATAL_ERROR "EMBER_SELECT_OPS_FROM needs EMBER_LIST_OPS: the path of an "
              "ember_list_ops built by a default configuration "
              "(cmake --build <dir> --target ember_list_ops)")
    endif()
    execute_process(COMMAND "${EMBER_LIST_OPS}" ${EMBER_SELECT_OPS_FROM}
                    OUTPUT_VARIABLE listed ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "ember_list_ops failed on ${EMBER_SELECT_OPS_FROM}: ${err}")
    endif()
    string(REGEX REPLACE "\n$" "" listed "${listed}")
    string(REPLACE "\n" ";" listed "${listed}")
    list(APPEND ops ${listed})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${EMBER_SELECT_OPS_FROM})
  endif()
  if(ops)
    list(REMOVE_DUPLICATES ops)
    list(SORT ops)
  endif()
  set(${out_ops} "${ops}" PARENT_SCOPE)
  if(EMBER_SELECT_OPS OR EMBER_SELECT_OPS_FILE OR EMBER_SELECT_OPS_FROM)
    set(${out_selective} TRUE PARENT_SCOPE)
  else()
    set(${out_selective} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Defines ember_portable_kernels (OBJECT) with the kernel files of <ops>
# only. The helpers (portable/util, llm helpers) go into a static library,
# ember_portable_support, so the linker takes just the objects the selected
# kernels call. The selection is written to <build>/selected_operators.txt.
function(ember_add_selected_portable_kernels ops)
  set(root "${PROJECT_SOURCE_DIR}")
  ember_check_fused_rows("${root}")
  if(EMBER_BUILD_TESTS)
    message(WARNING "Selective build with EMBER_BUILD_TESTS=ON: the kernel and model tests "
            "expect every operator and will fail; configure with -DEMBER_BUILD_TESTS=OFF")
  endif()
  ember_select_kernel_sources("${root}" "${ops}" sources unknown)
  if(unknown)
    string(REPLACE ";" ", " shown "${unknown}")
    message(WARNING "Selective build: no Ember kernel registers ${shown}; "
            "a program using them fails to load (OperatorMissing)")
  endif()
  # A kernel file that changes its registrations changes the selection.
  file(GLOB scanned "${root}/kernels/portable/op_*.cpp" "${root}/kernels/llm/op_*.cpp"
       "${root}/kernels/prim_ops/*.cpp")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${scanned})
  string(REPLACE ";" "\n" listing "${ops}")
  file(WRITE "${PROJECT_BINARY_DIR}/selected_operators.txt" "${listing}\n")
  # An OBJECT library needs a source even when only prim ops are selected.
  set(placeholder "${CMAKE_CURRENT_BINARY_DIR}/selected_kernels.cpp")
  file(WRITE "${placeholder}" "// Selective build: kernel files are listed in CMake.\n")
  list(LENGTH ops n_ops)
  list(LENGTH sources n_files)
  message(STATUS "Selective build: ${n_ops} operators, ${n_files} portable kernel files "
          "(${PROJECT_BINARY_DIR}/selected_operators.txt)")
  file(GLOB support "${root}/kernels/portable/util/*.cpp" "${root}/kernels/llm/*.cpp")
  list(FILTER support EXCLUDE REGEX "/op_[^/]*\\.cpp$")
  add_library(ember_portable_support STATIC ${support})
  target_link_libraries(ember_portable_support PUBLIC ember_core ember_kernel_math)
  target_compile_options(ember_portable_support PRIVATE ${EMBER_CORE_FLAGS})
  add_library(ember_portable_kernels OBJECT ${sources} "${placeholder}")
  target_link_libraries(ember_portable_kernels PUBLIC ember_portable_support)
endfunction()

# Script mode: write the operator -> file table as C++ initializer rows.
if(CMAKE_SCRIPT_MODE_FILE AND EMBER_KERNEL_TABLE)
  ember_kernel_registrations("${EMBER_SOURCE_DIR}" ops files)
  set(rows "// Generated by kernels/selective_build.cmake from the kernel sources.\n")
  foreach(op file IN ZIP_LISTS ops files)
    string(APPEND rows "{\"${op}\", \"${file}\"},\n")
  endforeach()
  file(WRITE "${EMBER_KERNEL_TABLE}" "${rows}")
endif()
