# Every dependency comes from Debian 12 packages (scripts/bootstrap installs them).
# docs/architecture.md says why each one is here.
find_package(Threads REQUIRED)
find_package(SQLite3 REQUIRED)            # results database
find_package(fmt 9 REQUIRED)              # formatting of messages, tables, numbers
find_package(CLI11 2 CONFIG REQUIRED)     # command-line parsing
find_package(nlohmann_json 3 REQUIRED)    # Kineto/Chrome trace JSON, --json output
find_package(simdjson 3 CONFIG REQUIRED)  # Kineto trace import: the events, in batches
find_package(tomlplusplus 3 REQUIRED)     # matrix files
find_package(ZLIB REQUIRED)               # gzip IDX datasets and .json.gz traces
find_package(OpenBLAS CONFIG REQUIRED)    # CPU GEMM
find_package(dnnl 2.6 CONFIG REQUIRED)    # CPU fp32 convolutions (oneDNN's JIT kernels)
find_package(OpenMP REQUIRED COMPONENTS CXX)  # the CPU backend's workers, shared with oneDNN
find_package(MPI REQUIRED COMPONENTS C)     # data-parallel ranks: launch, CPU all-reduce, NCCL bootstrap
if(NOT TARGET OpenBLAS::OpenBLAS)
  add_library(OpenBLAS::OpenBLAS INTERFACE IMPORTED)
  set_target_properties(OpenBLAS::OpenBLAS PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${OpenBLAS_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "${OpenBLAS_LIBRARIES}")
endif()

# Google Benchmark runs the CLI's `trainscope micro`, so the harness needs it whatever
# TRAINSCOPE_BENCHMARKS says; that option only adds the microbenchmarks of tests/bench.
find_package(benchmark REQUIRED)
if(TRAINSCOPE_TESTS)
  find_package(GTest REQUIRED)
endif()

set(TRAINSCOPE_BUILD_GUI OFF)
if(NOT TRAINSCOPE_GUI STREQUAL "OFF")
  if(TRAINSCOPE_GUI STREQUAL "ON")
    find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Sql Test)
  else()
    find_package(Qt6 6.4 QUIET COMPONENTS Core Gui Widgets Sql Test)
  endif()
  if(Qt6_FOUND)
    set(TRAINSCOPE_BUILD_GUI ON)
  else()
    message(STATUS "Qt 6 not found: the GUI is not built (TRAINSCOPE_GUI=AUTO)")
  endif()
endif()
