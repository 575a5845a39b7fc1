# cmake --install into SCRATCH/staging, then moved to PREFIX: the package
# must not depend on where it was installed, nor on the build tree.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

file(REMOVE_RECURSE ${SCRATCH})
set(staging ${SCRATCH}/staging)
pkg_run(out ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${staging})
file(RENAME ${staging} ${PREFIX})

foreach(f ${INCLUDEDIR}/ember/runtime/executor/program.h
          ${INCLUDEDIR}/ember/extension/module/module.h
          ${INCLUDEDIR}/ember/bundled_program/bundled_program.h
          ${LIBDIR}/cmake/Ember/EmberConfig.cmake
          ${LIBDIR}/cmake/Ember/EmberConfigVersion.cmake
          ${LIBDIR}/cmake/Ember/EmberTargets.cmake
          ${LIBDIR}/pkgconfig/ember.pc
          ${LIBDIR}/libember_core.a
          ${LIBDIR}/libember_runtime.a
          ${LIBDIR}/libember_portable_kernels.a
          ${LIBDIR}/libember_prim_ops.a
          ${LIBDIR}/libember_xnnpack_backend.a)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# The LLM extension in a build that has it (EMBER_BUILD_LLM), and only then.
foreach(f ${INCLUDEDIR}/ember/extension/llm/runner/text_llm_runner.h
          ${INCLUDEDIR}/ember/extension/llm/tokenizer/tokenizer.h
          ${LIBDIR}/libember_llm_runner.a
          ${LIBDIR}/libember_llm_tokenizer.a)
  if(LLM AND NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "not installed (the build has the LLM extension): ${f}")
  elseif(NOT LLM AND EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "installed by a build without the LLM extension: ${f}")
  endif()
endforeach()

# Nothing installed names the build tree, the sources or the staging place.
file(GLOB_RECURSE texts ${PREFIX}/${LIBDIR}/cmake/*.cmake ${PREFIX}/${LIBDIR}/pkgconfig/*.pc)
foreach(f ${texts})
  file(READ ${f} text)
  foreach(path ${BUILD_DIR} ${SOURCE_DIR} ${staging})
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} refers to ${path}")
    endif()
  endforeach()
endforeach()
