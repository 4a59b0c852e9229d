#include "workloads/devices/DeviceQuery.hpp"

namespace trainscope::workloads {

DeviceInventory query_cuda_devices() {
    DeviceInventory inventory;
    inventory.status = "this trainscope was built without CUDA (TRAINSCOPE_CUDA=OFF)";
    return inventory;
}

}  // namespace trainscope::workloads
