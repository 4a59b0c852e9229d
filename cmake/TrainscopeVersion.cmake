# The git revision goes into every run's environment, so every number says which
# trainscope produced it. Read at configure time and again at build time.
set(TRAINSCOPE_VERSION_HEADER "${PROJECT_BINARY_DIR}/generated/trainscope/version.hpp")
add_custom_target(trainscope_version_header
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${TRAINSCOPE_VERSION_HEADER}
          -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/WriteVersionHeader.cmake
  BYPRODUCTS ${TRAINSCOPE_VERSION_HEADER}
  COMMENT "Reading the git revision")
