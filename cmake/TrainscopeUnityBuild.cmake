# The sanitizer presets build each target as a few unity sources (CMAKE_UNITY_BUILD, set in
# CMakePresets.json): the headers every file repeats (gtest, CLI11, fmt, the trace model)
# are compiled once per batch instead of once per file, which is most of what CI's two
# sanitizer builds cost (docs/sanitizers.md, "CI's time"). The main build stays one object
# per file, so that a change recompiles only what it touches.
#
# A unity source puts files of one target into one translation unit, so two files that
# each define the same file-local name (an anonymous-namespace helper, a local `kNames`
# table) clash there. Such files compile alone, listed here by the folder whose
# CMakeLists.txt makes their target. A new clash shows as a redefinition error in the
# sanitizer stage of .ci/run: rename the helper, or list the file here.
function(trainscope_compile_alone_in_unity_builds directory)
  list(TRANSFORM ARGN PREPEND "${PROJECT_SOURCE_DIR}/${directory}/" OUTPUT_VARIABLE files)
  set_source_files_properties(${files} DIRECTORY "${PROJECT_SOURCE_DIR}/${directory}"
                              PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

if(CMAKE_UNITY_BUILD)
  trainscope_compile_alone_in_unity_builds(profiler
    analysis/StepApiCounts.cpp
    trace/Collective.cpp)
  trainscope_compile_alone_in_unity_builds(reports
    trace/TraceMetrics.cpp)
  trainscope_compile_alone_in_unity_builds(tests/profiler
    HostTracerCollectiveTest.cpp
    HostTracerOpWorkTest.cpp
    SqliteLayerTest.cpp)
  trainscope_compile_alone_in_unity_builds(tests/gui
    CpuTraceGenerator.cpp)
  trainscope_compile_alone_in_unity_builds(tests/harness
    cli_faults_test.cpp)
  trainscope_compile_alone_in_unity_builds(tests/reports
    html_report_test.cpp
    metric_catalog_test.cpp
    tracing_overhead_summary_test.cpp)
endif()
