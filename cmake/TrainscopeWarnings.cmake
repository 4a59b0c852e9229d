# Warnings are errors for our own code only; third-party headers come in as SYSTEM.
function(trainscope_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                              -Wold-style-cast -Wcast-align -Woverloaded-virtual -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
endfunction()

# Headers are included by their folder ("profiler/trace/Trace.hpp"). Each folder gets an
# include root of its own, a build directory that holds only a link named after the
# folder, so a target sees the headers of the libraries it links and no others: a layer
# that includes a header of one it may not use fails to compile instead of linking by
# accident.
function(trainscope_include_root target scope folder)
  set(root "${PROJECT_BINARY_DIR}/include-roots/${folder}")
  if(NOT EXISTS "${root}/${folder}")
    file(MAKE_DIRECTORY "${root}")
    file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${folder}" "${root}/${folder}" SYMBOLIC)
  endif()
  target_include_directories(${target} ${scope} "${root}")
endfunction()

# One library per folder, with an alias trainscope::<name>. FOLDER names the folder when
# it differs from the name (gui_lib lives in gui/).
function(trainscope_library name)
  cmake_parse_arguments(ARG "" "FOLDER" "SOURCES" ${ARGN})
  if(NOT ARG_FOLDER)
    set(ARG_FOLDER ${name})
  endif()
  add_library(trainscope_${name} STATIC ${ARG_SOURCES})
  add_library(trainscope::${name} ALIAS trainscope_${name})
  trainscope_include_root(trainscope_${name} PUBLIC ${ARG_FOLDER})
  set_target_properties(trainscope_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  trainscope_warnings(trainscope_${name})
endfunction()
