// A stand-in for the NVIDIA driver's libcuda.so.1 that does nothing: found first on
// LD_LIBRARY_PATH, it makes trainscope's driver probe succeed on a machine without a
// driver, so the CLI tests can reach the CUDA module's loading (cli_cuda_module_test).
extern "C" int trainscope_fake_libcuda() {
    return 0;
}
