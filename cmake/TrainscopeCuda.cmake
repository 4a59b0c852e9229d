# CUDA toolkit discovery. AUTO builds the CUDA backend when nvcc and the toolkit are
# found (they are on the development and CI machines, without a GPU); ON requires them.
set(TRAINSCOPE_HAS_CUDA OFF)
set(TRAINSCOPE_CUDA_ARCHITECTURES "80-real;90-real;100" CACHE STRING
    "CUDA architectures: real code for 80, 90 and 100 plus PTX for the newest")

if(NOT TRAINSCOPE_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS "/usr/local/cuda/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "/usr/local/cuda/bin/nvcc")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "${TRAINSCOPE_CUDA_ARCHITECTURES}")
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    find_library(TRAINSCOPE_CUDNN_LIBRARY cudnn
      HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib /usr/local/cuda/lib64)
    find_path(TRAINSCOPE_CUDNN_INCLUDE cudnn.h
      HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include)
    # NCCL ships with the toolkit (/usr/local/cuda/include/nccl.h, lib64/libnccl.so).
    find_library(TRAINSCOPE_NCCL_LIBRARY nccl
      HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib /usr/local/cuda/lib64)
    find_path(TRAINSCOPE_NCCL_INCLUDE nccl.h
      HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include)
    if(TRAINSCOPE_NCCL_LIBRARY AND TRAINSCOPE_NCCL_INCLUDE)
      add_library(trainscope_nccl INTERFACE IMPORTED)
      set_target_properties(trainscope_nccl PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${TRAINSCOPE_NCCL_INCLUDE}"
        INTERFACE_LINK_LIBRARIES "${TRAINSCOPE_NCCL_LIBRARY}")
      add_library(NCCL::nccl ALIAS trainscope_nccl)
    endif()
    if(TRAINSCOPE_CUDNN_LIBRARY AND TRAINSCOPE_CUDNN_INCLUDE AND TARGET CUDA::cupti
       AND TARGET NCCL::nccl)
      add_library(trainscope_cudnn INTERFACE IMPORTED)
      set_target_properties(trainscope_cudnn PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${TRAINSCOPE_CUDNN_INCLUDE}"
        INTERFACE_LINK_LIBRARIES "${TRAINSCOPE_CUDNN_LIBRARY}")
      add_library(CUDNN::cudnn ALIAS trainscope_cudnn)
      set(TRAINSCOPE_HAS_CUDA ON)
    else()
      set(_missing "cuDNN (${TRAINSCOPE_CUDNN_LIBRARY}), NCCL (${TRAINSCOPE_NCCL_LIBRARY}) or CUPTI")
    endif()
  else()
    set(_missing "nvcc")
  endif()
  if(NOT TRAINSCOPE_HAS_CUDA)
    if(TRAINSCOPE_CUDA STREQUAL "ON")
      message(FATAL_ERROR "TRAINSCOPE_CUDA=ON but ${_missing} was not found. "
                          "Install the CUDA 13 toolkit in /usr/local/cuda or set TRAINSCOPE_CUDA=OFF.")
    endif()
    message(STATUS "CUDA not built (${_missing} not found): CPU backend only")
  endif()
endif()

# NVTX 3 is header-only and ships with the toolkit; a CPU-only build still annotates
# phases (the host tracer listens through NVTX injection), so the headers are used
# whenever they exist.
find_path(TRAINSCOPE_NVTX3_INCLUDE nvtx3/nvtx3.hpp
  HINTS /usr/local/cuda/include ${CUDAToolkit_INCLUDE_DIRS})
add_library(trainscope_nvtx3 INTERFACE)
if(TRAINSCOPE_NVTX3_INCLUDE)
  target_include_directories(trainscope_nvtx3 SYSTEM INTERFACE "${TRAINSCOPE_NVTX3_INCLUDE}")
  target_compile_definitions(trainscope_nvtx3 INTERFACE TRAINSCOPE_HAS_NVTX=1)
  target_link_libraries(trainscope_nvtx3 INTERFACE ${CMAKE_DL_LIBS})
else()
  message(STATUS "NVTX 3 headers not found: phase annotations compiled out")
endif()
add_library(trainscope::nvtx ALIAS trainscope_nvtx3)
