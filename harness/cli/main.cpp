#include "harness/cli/TrainscopeCli.hpp"

int main(int argc, char** argv) {
    return trainscope::harness::run_cli(argc, argv);
}
