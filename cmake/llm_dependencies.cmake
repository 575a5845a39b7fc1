# Resolves EMBER_BUILD_LLM (ON, OFF, AUTO; see the top-level CMakeLists.txt)
# to ON or OFF, as a normal variable the subdirectories see, and finds the
# LLM extension's libraries: EMBER_SENTENCEPIECE_* and EMBER_PCRE2_*, and
# the targets ember::sentencepiece and ember::pcre2.
set(_ember_llm_request ${EMBER_BUILD_LLM})
set(EMBER_BUILD_LLM OFF)
if(_ember_llm_request STREQUAL "OFF" OR (_ember_llm_request STREQUAL "AUTO" AND
   (EMBER_RUNTIME_ONLY OR CMAKE_CROSSCOMPILING)))
  return()
endif()
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(EMBER_SENTENCEPIECE QUIET sentencepiece)
  pkg_check_modules(EMBER_PCRE2 QUIET libpcre2-8)
endif()
# stb_image (header only, libstb-dev) decodes the multimodal runner's
# images (extension/llm/runner/image_stb.cpp).
find_path(EMBER_STB_INCLUDE_DIR stb/stb_image.h)
if(EMBER_SENTENCEPIECE_FOUND AND EMBER_PCRE2_FOUND AND EMBER_STB_INCLUDE_DIR)
  set(EMBER_BUILD_LLM ON)
elseif(_ember_llm_request STREQUAL "AUTO")
  message(STATUS "Ember: the LLM extension is off (libsentencepiece-dev, libpcre2-dev and "
                 "libstb-dev not all found; scripts/install_deps.sh installs them)")
else()
  message(FATAL_ERROR "EMBER_BUILD_LLM=ON needs libsentencepiece-dev, libpcre2-dev and "
                      "libstb-dev (scripts/install_deps.sh installs them), or "
                      "-DEMBER_BUILD_LLM=OFF")
endif()

# The libraries as targets the tokenizers link (link flags only: their
# headers are the tokenizers' private business). The installed package
# defines targets of the same names (cmake/EmberConfig.cmake.in), found
# again through pkg-config on the consumer's machine.
if(NOT EMBER_BUILD_LLM)
  return()
endif()
add_library(ember::sentencepiece INTERFACE IMPORTED)
target_link_libraries(ember::sentencepiece INTERFACE ${EMBER_SENTENCEPIECE_LINK_LIBRARIES})
add_library(ember::pcre2 INTERFACE IMPORTED)
target_link_libraries(ember::pcre2 INTERFACE ${EMBER_PCRE2_LINK_LIBRARIES})
