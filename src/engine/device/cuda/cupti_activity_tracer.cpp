#include "engine/device/cuda/cupti_activity_tracer.h"

#include <cupti.h>
#include <fmt/format.h>

#include <cstdlib>

#include "engine/device/cuda/cuda_check.h"
#include "timing/device_api.h"

namespace caliber::cuda {
namespace {

constexpr CUpti_ActivityKind kTracedKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};
constexpr size_t kBufferBytes = 8u << 20;
constexpr size_t kRecordAlignment = 8;

void check_cupti(CUptiResult status, const char* what) {
  if (status == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(status, &text);
  throw DeviceError("kernel", fmt::format("{}: CUPTI error {}: {}", what, static_cast<int>(status),
                                          text ? text : "unknown"));
}

// The kind, start and end of a record of one of the traced kinds, in the layout of the CUPTI
// these headers describe.
DeviceActivity activity_of(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      return {ActivityKind::kKernel, kernel->start, kernel->end};
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      return {ActivityKind::kMemcpy, copy->start, copy->end};
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      auto* set = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      return {ActivityKind::kMemset, set->start, set->end};
    }
    default:
      return {};
  }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kRecordAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_size) {
  CuptiActivityTracer::instance().deliver(buffer, valid_size);
  std::free(buffer);
}

}  // namespace

CuptiActivityTracer& CuptiActivityTracer::instance() {
  static CuptiActivityTracer tracer;
  return tracer;
}

void CuptiActivityTracer::deliver(uint8_t* buffer, size_t valid_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    DeviceActivity activity = activity_of(record);
    if (activity.end_ns > activity.start_ns) records_.push_back(activity);
  }
}

void CuptiActivityTracer::start() {
  if (!callbacks_registered_) {
    check_cupti(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                "cuptiActivityRegisterCallbacks");
    callbacks_registered_ = true;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.clear();
  }
  for (CUpti_ActivityKind kind : kTracedKinds) {
    CUptiResult status = cuptiActivityEnable(kind);
    if (status != CUPTI_SUCCESS) {
      disable_kinds();
      check_cupti(status, "cuptiActivityEnable");
    }
  }
}

std::vector<DeviceActivity> CuptiActivityTracer::stop() {
  check(cudaDeviceSynchronize(), "kernel", "cudaDeviceSynchronize");
  check_cupti(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  disable_kinds();
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS && dropped > 0) {
    throw DeviceError("kernel", fmt::format("CUPTI dropped {} activity records", dropped));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(records_);
}

void CuptiActivityTracer::disable_kinds() {
  for (CUpti_ActivityKind kind : kTracedKinds) cuptiActivityDisable(kind);
}

uint64_t CuptiActivityTracer::now_ns() {
  uint64_t now = 0;
  check_cupti(cuptiGetTimestamp(&now), "cuptiGetTimestamp");
  return now;
}

ScopedActivityTrace::~ScopedActivityTrace() {
  if (stopped_) return;
  try {
    CuptiActivityTracer::instance().stop();
  } catch (...) {
    // Already unwinding from the error that matters.
  }
}

std::vector<DeviceActivity> ScopedActivityTrace::stop() {
  stopped_ = true;
  return CuptiActivityTracer::instance().stop();
}

}  // namespace caliber::cuda
