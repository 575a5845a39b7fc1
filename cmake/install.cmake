# `cmake --install build --prefix P`: headers, static libraries, a CMake
# package (find_package(Ember CONFIG), targets ember::*) and a pkg-config
# file. Layout under P:
#
#   include/ember/runtime/...        headers, rooted as in the repository
#   lib/libember_*.a                 Ember's static libraries
#   lib/ember/deps/lib*.a            copies of XNNPACK, its microkernels,
#                                    cpuinfo and pthreadpool when they were
#                                    built from source (.deps/prefix); the
#                                    system's are referred to where they are
#   lib/cmake/Ember/                 EmberConfig.cmake, version, targets
#   lib/pkgconfig/ember.pc
#
# Kernels and backends register themselves from static initializers, so in
# the build tree they are OBJECT libraries. For the package each becomes a
# static archive of the same objects, and the target an application links
# (ember::portable_kernels, ...) pulls that archive in whole
# ($<LINK_LIBRARY:WHOLE_ARCHIVE>; -Wl,--whole-archive in ember.pc): nothing
# references a registration, so a plain archive would lose every one.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(EMBER_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Ember)
set(EMBER_INSTALL_DEPSDIR ${CMAKE_INSTALL_LIBDIR}/ember/deps)

# --- registration libraries: archive + whole-archive interface -------------
# ember_<name> (OBJECT) -> ember_<name>_archive (STATIC, same objects, file
# libember_<name>.a, exported as ember::<name>_archive) and ember_pkg_<name>
# (INTERFACE, exported as ember::<name>) that links it whole.
set(EMBER_REGISTERING_LIBS portable_kernels prim_ops xnnpack_backend demo_backend)
foreach(name ${EMBER_REGISTERING_LIBS})
  set(obj ember_${name})
  add_library(${obj}_archive STATIC $<TARGET_OBJECTS:${obj}>)
  set_target_properties(${obj}_archive PROPERTIES OUTPUT_NAME ${obj}
                        EXPORT_NAME ${name}_archive)
  get_target_property(deps ${obj} INTERFACE_LINK_LIBRARIES)
  target_link_libraries(${obj}_archive PUBLIC ${deps})
  add_library(ember_pkg_${name} INTERFACE)
  # install(EXPORT) does not rename targets inside $<LINK_LIBRARY>: name
  # the exported one for the installed package.
  target_link_libraries(ember_pkg_${name} INTERFACE
    "$<BUILD_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,${obj}_archive>>"
    "$<INSTALL_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,ember::${name}_archive>>")
  set_target_properties(ember_pkg_${name} PROPERTIES EXPORT_NAME ${name})
endforeach()
# Every operator a program without delegates may call, prim ops included.
target_link_libraries(ember_pkg_portable_kernels INTERFACE ember_pkg_prim_ops)

# ember::extension: every extension library.
add_library(ember_pkg_extension INTERFACE)
target_link_libraries(ember_pkg_extension INTERFACE ember_data_loader ember_file_util
                      ember_npy ember_module ember_tensor ember_runner_util)
set_target_properties(ember_pkg_extension PROPERTIES EXPORT_NAME extension)

set(EMBER_PLAIN_LIBS core runtime kernel_math data_loader file_util npy module tensor
    runner_util bundled_program devtools)
set(EMBER_EXPORTED)
foreach(name ${EMBER_PLAIN_LIBS})
  set_target_properties(ember_${name} PROPERTIES EXPORT_NAME ${name})
  list(APPEND EMBER_EXPORTED ember_${name})
endforeach()
foreach(name ${EMBER_REGISTERING_LIBS})
  list(APPEND EMBER_EXPORTED ember_${name}_archive ember_pkg_${name})
endforeach()
list(APPEND EMBER_EXPORTED ember_pkg_extension)
# The LLM extension, when built (EMBER_BUILD_LLM): ember::llm_tokenizer
# and ember::llm_runner, the package's component "llm". The tokenizers'
# SentencePiece and PCRE2 are the consumer's own, found by the package
# (EmberConfig.cmake.in); nlohmann-json stays behind (sources only).
if(EMBER_BUILD_LLM)
  foreach(name llm_tokenizer llm_runner)
    set_target_properties(ember_${name} PROPERTIES EXPORT_NAME ${name})
    list(APPEND EMBER_EXPORTED ember_${name})
  endforeach()
endif()
# A selective build (kernels/selective_build.cmake) keeps the portable
# helpers in a static library of their own that the kernels link.
if(TARGET ember_portable_support)
  set_target_properties(ember_portable_support PROPERTIES EXPORT_NAME portable_support)
  list(APPEND EMBER_EXPORTED ember_portable_support)
endif()

# Installed headers keep their repository-rooted paths under include/ember;
# every target links ember::core, which carries the include directory.
target_include_directories(ember_core PUBLIC
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/ember>)
install(TARGETS ${EMBER_EXPORTED} EXPORT EmberTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT EmberTargets NAMESPACE ember:: DESTINATION ${EMBER_INSTALL_CMAKEDIR})

# --- headers ----------------------------------------------------------------
# The public API, listed: a header is installed only when it is named here.
# They include only each other and the standard library (no generated
# flatbuffers reader, no flatbuffers, XNNPACK, pthreadpool, SentencePiece,
# PCRE2 or nlohmann-json header), so that is all a consumer needs (test/package: headers checks the installed
# set is exactly this list and that each compiles alone; examples/app and
# examples/device_app are built against it). Everything else stays behind:
# *_internal.h, the loader's own helpers (program_validation.h,
# tensor_data_kind.h, operator_name.h, extended_header.h), the data
# loaders' range_check.h, the tokenizers' formats.h and bpe_core.h, kernel
# sources and tools.
set(EMBER_PUBLIC_HEADERS
  runtime/core/data_loader.h
  runtime/core/error.h
  runtime/core/error_message.h
  runtime/core/evalue.h
  runtime/core/event_tracer.h
  runtime/core/freeable_buffer.h
  runtime/core/half.h
  runtime/core/hierarchical_allocator.h
  runtime/core/memory_allocator.h
  runtime/core/memory_manager.h
  runtime/core/named_data_map.h
  runtime/core/result.h
  runtime/core/scalar_type.h
  runtime/core/span.h
  runtime/core/tensor.h
  runtime/executor/flat_tensor_data_map.h
  runtime/executor/method.h
  runtime/executor/method_meta.h
  runtime/executor/program.h
  runtime/backend/backend.h
  runtime/kernel/fusion_registry.h
  runtime/kernel/kernel_args.h
  runtime/kernel/kernel_context.h
  runtime/kernel/operand_preparation.h
  runtime/kernel/operator_registry.h
  runtime/platform/compiler.h
  runtime/platform/cpu_features.h
  runtime/platform/error.h
  runtime/platform/error_message.h
  runtime/platform/log.h
  runtime/platform/threadpool.h
  bundled_program/bundled_program.h
  extension/data_loader/buffer_data_loader.h
  extension/data_loader/file_data_loader.h
  extension/data_loader/mmap_data_loader.h
  extension/file_util/read_file.h
  extension/module/module.h
  extension/npy/npy.h
  extension/runner_util/inputs.h
  extension/tensor/tensor_ptr.h
  devtools/etdump/etdump_writer.h
  devtools/event_recorder.h
)
if(EMBER_BUILD_LLM)
  list(APPEND EMBER_PUBLIC_HEADERS
    extension/llm/tokenizer/tokenizer.h
    extension/llm/runner/audio_features.h
    extension/llm/runner/context_trim.h
    extension/llm/runner/decoder_io.h
    extension/llm/runner/generation_config.h
    extension/llm/runner/image_loader.h
    extension/llm/runner/media_inputs.h
    extension/llm/runner/metadata.h
    extension/llm/runner/multimodal_input.h
    extension/llm/runner/multimodal_prompt.h
    extension/llm/runner/multimodal_runner.h
    extension/llm/runner/sampler.h
    extension/llm/runner/seq2seq_runner.h
    extension/llm/runner/session_file.h
    extension/llm/runner/session_state.h
    extension/llm/runner/stats.h
    extension/llm/runner/text_llm_runner.h
    extension/llm/runner/timestamps.h
    extension/llm/runner/utf8_stream.h
    extension/llm/runner/wav_loader.h)
endif()
foreach(header ${EMBER_PUBLIC_HEADERS})
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${header})
    message(FATAL_ERROR "EMBER_PUBLIC_HEADERS names ${header}, which does not exist")
  endif()
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ember/${dir})
endforeach()
# The list, for test/package's headers check.
string(REPLACE ";" "\n" _ember_header_lines "${EMBER_PUBLIC_HEADERS}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/package/public_headers.txt "${EMBER_PUBLIC_HEADERS}")

# --- dependencies -----------------------------------------------------------
# The XNNPACK, cpuinfo and pthreadpool the build linked. Built from source
# under EMBER_XNNPACK_PREFIX: installed as copies (the package relocates with
# its prefix). From the system: referred to by absolute path.
set(EMBER_DEP_VARS EMBER_XNNPACK_LIB)
if(EMBER_XNNPACK_UKERNELS_LIB AND EMBER_XNNPACK_LIB MATCHES "\\.a$")
  list(APPEND EMBER_DEP_VARS EMBER_XNNPACK_UKERNELS_LIB)
endif()
list(APPEND EMBER_DEP_VARS EMBER_CPUINFO_LIB EMBER_PTHREADPOOL_LIB)
file(REAL_PATH "${EMBER_XNNPACK_PREFIX}" _ember_deps_real)
foreach(var ${EMBER_DEP_VARS})
  file(REAL_PATH "${${var}}" lib)
  get_filename_component(file_name "${lib}" NAME)
  string(FIND "${lib}" "${_ember_deps_real}/" at)
  if(at EQUAL 0)
    install(FILES "${lib}" DESTINATION ${EMBER_INSTALL_DEPSDIR})
    set(${var}_CMAKE "\${PACKAGE_PREFIX_DIR}/${EMBER_INSTALL_DEPSDIR}/${file_name}")
    set(${var}_PC "\${libdir}/ember/deps/${file_name}")
  else()
    set(${var}_CMAKE "${lib}")
    set(${var}_PC "${lib}")
  endif()
endforeach()
set(EMBER_CONFIG_XNNPACK_LIBS)
set(EMBER_PC_XNNPACK_LIBS)
foreach(var ${EMBER_DEP_VARS})
  if(NOT var STREQUAL "EMBER_PTHREADPOOL_LIB")
    list(APPEND EMBER_CONFIG_XNNPACK_LIBS "${${var}_CMAKE}")
  endif()
  string(APPEND EMBER_PC_XNNPACK_LIBS " ${${var}_PC}")
endforeach()
set(EMBER_CONFIG_PTHREADPOOL_LIB "${EMBER_PTHREADPOOL_LIB_CMAKE}")
set(EMBER_CONFIG_HAS_LLM FALSE)
if(EMBER_BUILD_LLM)
  set(EMBER_CONFIG_HAS_LLM TRUE)
endif()

configure_package_config_file(cmake/EmberConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/package/EmberConfig.cmake
  INSTALL_DESTINATION ${EMBER_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/package/EmberConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/EmberConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/package/EmberConfigVersion.cmake
        DESTINATION ${EMBER_INSTALL_CMAKEDIR})

# --- pkg-config ---------------------------------------------------------------
# One module with everything but the demo backend, registration libraries whole, then the rest
# in link order. `pkg-config --cflags --libs --static ember`.
# The demo backend stays out (CMake consumers can still link
# ember::demo_backend).
set(EMBER_PC_WHOLE)
foreach(name ${EMBER_REGISTERING_LIBS})
  if(NOT name STREQUAL "demo_backend")
    string(APPEND EMBER_PC_WHOLE " -lember_${name}")
  endif()
endforeach()
# prefix= is found from the file's own place (relocatable): libdir/pkgconfig/..
file(RELATIVE_PATH EMBER_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" EMBER_PC_TO_PREFIX "${EMBER_PC_TO_PREFIX}")
configure_file(cmake/ember.pc.in ${CMAKE_CURRENT_BINARY_DIR}/package/ember.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/ember.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
