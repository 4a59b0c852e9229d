#pragma once

#include <cupti.h>

#include <string>

// Counts kernel launches made through the CUDA runtime (our own kernels' <<<>>> and
// cudaLaunchKernel*) while it lives, from CUPTI's runtime-API callbacks. Libraries that
// launch through the driver API (cuDNN, cuBLAS) are not counted: the tests that use it
// measure phases made of this backend's own kernels. error() says why counting could not
// start (another CUPTI subscriber, no CUPTI), for a skip message.
class LaunchCounter {
  public:
    LaunchCounter() {
        const CUptiResult status = cuptiSubscribe(&subscriber_, &LaunchCounter::on_api, this);
        if (status != CUPTI_SUCCESS) {
            const char* text = nullptr;
            cuptiGetResultString(status, &text);
            error_ = std::string("cuptiSubscribe failed: ") + (text ? text : "unknown");
            subscriber_ = nullptr;
            return;
        }
        cuptiEnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API);
    }
    ~LaunchCounter() {
        if (subscriber_ != nullptr) {
            cuptiUnsubscribe(subscriber_);
        }
    }
    LaunchCounter(const LaunchCounter&) = delete;
    LaunchCounter& operator=(const LaunchCounter&) = delete;

    const std::string& error() const { return error_; }
    int launches() const { return launches_; }
    void reset() { launches_ = 0; }

  private:
    static void CUPTIAPI on_api(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                const void* data) {
        if (domain != CUPTI_CB_DOMAIN_RUNTIME_API ||
            static_cast<const CUpti_CallbackData*>(data)->callbackSite != CUPTI_API_ENTER) {
            return;
        }
        if (id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 ||
            id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000 ||
            id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060 ||
            id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060) {
            ++static_cast<LaunchCounter*>(userdata)->launches_;
        }
    }

    CUpti_SubscriberHandle subscriber_ = nullptr;
    std::string error_;
    int launches_ = 0;
};
