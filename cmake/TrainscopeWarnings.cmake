# Warnings are errors for our own code only; third-party headers come in as SYSTEM.
function(trainscope_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                              -Wold-style-cast -Wcast-align -Woverloaded-virtual -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
endfunction()

# One library per folder, with an alias trainscope::<name>.
function(trainscope_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_library(trainscope_${name} STATIC ${ARG_SOURCES})
  add_library(trainscope::${name} ALIAS trainscope_${name})
  target_include_directories(trainscope_${name} PUBLIC "${PROJECT_SOURCE_DIR}")
  set_target_properties(trainscope_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  trainscope_warnings(trainscope_${name})
endfunction()
