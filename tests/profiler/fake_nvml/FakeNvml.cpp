// A stand-in for libnvidia-ml.so.1 with two devices and fixed readings, so the
// sampler's dlopen path, threading and unit conversions are tested without a GPU.
// Device 1 reports "not supported" (NVML code 3) for power. NVML's index order is not
// PCI order here: index 0 sits at bus 0x3B, index 1 at bus 0x01, and the bus-id lookup
// accepts only NVML's own spelling ("00000000:3B:00.0"), so a test sees which device a
// CUDA bus id reached and that trainscope normalised the id. Clocks event reasons come
// from the new entry point (8) and the deprecated one (4): the sampler must use the new.
#include <cstring>

extern "C" {

struct FakeDevice {
    unsigned int index;
};
static FakeDevice g_devices[2] = {{0}, {1}};

struct FakeUtilization {
    unsigned int gpu;
    unsigned int memory;
};
struct FakeMemory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

int nvmlInit_v2() {
    return 0;
}
int nvmlShutdown() {
    return 0;
}
const char* nvmlErrorString(int) {
    return "fake error";
}
int nvmlDeviceGetCount_v2(unsigned int* count) {
    *count = 2;
    return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned int index, FakeDevice** device) {
    if (index >= 2)
        return 2;
    *device = &g_devices[index];
    return 0;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, FakeDevice** device) {
    if (std::strcmp(bus_id, "00000000:3B:00.0") == 0) {
        *device = &g_devices[0];
        return 0;
    }
    if (std::strcmp(bus_id, "00000000:01:00.0") == 0) {
        *device = &g_devices[1];
        return 0;
    }
    return 6;  // NVML_ERROR_NOT_FOUND
}
int nvmlDeviceGetUtilizationRates(FakeDevice*, FakeUtilization* u) {
    u->gpu = 42;
    u->memory = 17;
    return 0;
}
int nvmlDeviceGetMemoryInfo(FakeDevice*, FakeMemory* m) {
    m->total = 80ull << 30;
    m->used = 1ull << 30;
    m->free = m->total - m->used;
    return 0;
}
int nvmlDeviceGetPowerUsage(FakeDevice* d, unsigned int* milliwatts) {
    if (d->index == 1)
        return 3;
    *milliwatts = 250500;
    return 0;
}
int nvmlDeviceGetClockInfo(FakeDevice*, int type, unsigned int* mhz) {
    *mhz = type == 1 ? 1410 : 1215;
    return 0;
}
int nvmlDeviceGetTemperature(FakeDevice*, int, unsigned int* celsius) {
    *celsius = 55;
    return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(FakeDevice*, unsigned long long* millijoules) {
    *millijoules = 123456;
    return 0;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(FakeDevice*, unsigned long long* reasons) {
    *reasons = 4;
    return 0;
}
int nvmlDeviceGetCurrentClocksEventReasons(FakeDevice*, unsigned long long* reasons) {
    *reasons = 8;
    return 0;
}
}
