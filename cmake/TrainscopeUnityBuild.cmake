# The sanitizer presets build each target as a few unity sources (CMAKE_UNITY_BUILD, set in
# CMakePresets.json): the headers every file repeats (gtest, CLI11, fmt, the trace model)
# are compiled once per batch instead of once per file, which is most of what CI's two
# sanitizer builds cost (docs/sanitizers.md, "CI's time"). The main build stays one object
# per file, so that a change recompiles only what it touches.
#
# A unity source puts files of one target into one translation unit, so two files that
# each define the same file-local name (an anonymous-namespace helper, a local `kNames`
# table) clash there. Such files compile alone, listed here under their target (a target
# this build does not make, such as the GUI's in a CPU-only preset, is passed over). A new
# clash shows as a redefinition error in the sanitizer stage of .ci/run: rename the
# helper, or list the file here.
function(trainscope_compile_alone_in_unity_builds target)
  if(NOT TARGET ${target})
    return()
  endif()
  get_target_property(directory ${target} SOURCE_DIR)
  list(TRANSFORM ARGN PREPEND "${directory}/" OUTPUT_VARIABLE files)
  set_source_files_properties(${files} DIRECTORY "${directory}"
                              PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

if(CMAKE_UNITY_BUILD)
  trainscope_compile_alone_in_unity_builds(trainscope_profiler
    analysis/StepApiCounts.cpp
    trace/Collective.cpp)
  trainscope_compile_alone_in_unity_builds(trainscope_reports
    trace/TraceMetrics.cpp)
  trainscope_compile_alone_in_unity_builds(profiler_tests
    LaneNamesAcrossSourcesTest.cpp
    NvmlErrorTest.cpp
    SqliteLayerTest.cpp
    StreamedJobAssemblyTest.cpp)
  trainscope_compile_alone_in_unity_builds(profiler_threaded_tests
    HostTracerCollectiveTest.cpp
    HostTracerOpWorkTest.cpp)
  trainscope_compile_alone_in_unity_builds(trainscope_gui_testgen
    CpuTraceGenerator.cpp)
  trainscope_compile_alone_in_unity_builds(cli_tests
    cli_faults_test.cpp)
  trainscope_compile_alone_in_unity_builds(reports_tests
    metric_catalog_test.cpp
    tracing_overhead_summary_test.cpp)
  trainscope_compile_alone_in_unity_builds(reports_export_tests
    html_report_test.cpp)
endif()
