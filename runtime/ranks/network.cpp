#include "runtime/ranks/network.hpp"

#include <mpi.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "recorder/recorder.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/memory/pool.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/mpi_allreduce.hpp"

namespace legato::rt {
namespace {

// Larger transfers go as several messages of at most this many bytes, in order.
constexpr uint64_t kMaxMessage = uint64_t{1} << 30;
// How often the network thread looks at exchanges in flight.
constexpr auto kPollInterval = std::chrono::microseconds(20);

int tag_of(uint64_t sequence) {
  static const int upper = [] {
    void* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
    return found != 0 ? *static_cast<int*>(value) : 32767;
  }();
  return static_cast<int>(sequence % static_cast<uint64_t>(upper));
}

// What a transfer's sender sends ahead of its data, with the same tag (so
// it arrives first): the memory it reads from, for the receiver's trace.
struct TransferHeader {
  uint32_t memory = 0;  // resource id
  char name[28] = {};   // NUL-terminated
};

}  // namespace

struct Network::Exchange {
  std::shared_ptr<NetItem> item;
  TransferItem* transfer = nullptr;  // or an all-reduce
  bool probing = false;              // a receive waiting for the sender's header
  TransferHeader header;             // a send's, until it completes
  std::vector<MPI_Request> requests;
  Scalar in, out;       // all-reduce values
  bool on_gpu = false;  // an all-reduce through NCCL
};

namespace {

[[noreturn]] void failed(const Operation& op, const std::string& what, const std::string& why) {
  fatal_error(trace::ErrorKind::Fatal,
              std::string(op.name) + " [" + op.where->text + "]: " + what + " failed: " + why,
              op.uid, trace::kNoResource, "rank " + std::to_string(comm::rank()) + ": ");
}

[[noreturn]] void failed(const Operation& op, const std::string& what, int rc) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int n = 0;
  MPI_Error_string(rc, text, &n);
  failed(op, what, std::string(text));
}

std::string transfer_text(const TransferItem& t) {
  return "moving " + std::to_string(t.bytes()) + " bytes of store '" + t.store->name +
         "' from rank " + std::to_string(t.from) + " to rank " + std::to_string(t.to);
}

// Posts a transfer's messages (sends or receives).
void post(TransferItem& t, std::vector<MPI_Request>& requests) {
  std::byte* data = t.instance->at(t.range.lo, t.store->elem_size);
  const uint64_t total = t.bytes();
  const int tag = tag_of(t.sequence);
  for (uint64_t at = 0; at < total; at += kMaxMessage) {
    const int n = static_cast<int>(std::min(kMaxMessage, total - at));
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = t.sending() ? MPI_Isend(data + at, n, MPI_BYTE, t.to, tag, MPI_COMM_WORLD, &r)
                               : MPI_Irecv(data + at, n, MPI_BYTE, t.from, tag, MPI_COMM_WORLD, &r);
    if (rc != MPI_SUCCESS) failed(*t.op, transfer_text(t), rc);
    requests.push_back(r);
  }
}

}  // namespace

Network::Network() = default;
Network::~Network() {
  stop();
}

void Network::start(uint32_t allreduce_channel, std::unique_ptr<GpuCollectives> gpu) {
  allreduce_channel_ = allreduce_channel;
  gpu_ = std::move(gpu);
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "legato-net");
    loop();
  });
}

void Network::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  gpu_.reset();
}

void Network::push(std::shared_ptr<NetItem> item) {
  {
    std::lock_guard lock(mu_);
    incoming_.push_back(std::move(item));
  }
  cv_.notify_one();
}

void Network::accept(std::shared_ptr<NetItem> item) {
  if (auto* t = dynamic_cast<TransferItem*>(item.get())) {
    auto x = std::make_unique<Exchange>();
    x->item = std::move(item);
    x->transfer = t;
    if (t->sending()) {
      t->begin();
      const MemoryPool& from = *t->instance->memory;
      x->header.memory = from.id();
      std::snprintf(x->header.name, sizeof x->header.name, "%s", from.name().c_str());
      MPI_Request r = MPI_REQUEST_NULL;
      const int rc = MPI_Isend(&x->header, sizeof x->header, MPI_BYTE, t->to, tag_of(t->sequence),
                               MPI_COMM_WORLD, &r);
      if (rc != MPI_SUCCESS) failed(*t->op, transfer_text(*t), rc);
      x->requests.push_back(r);
      post(*t, x->requests);
    } else {
      x->probing = true;  // posted when the sender's message arrives: that is its start
    }
    active_.push_back(std::move(x));
    return;
  }
  held_.push_back(std::static_pointer_cast<AllreduceItem>(item));
  post_collectives();
}

// Collectives go out in the order every rank made them (through NCCL, one at a time).
void Network::post_collectives() {
  while (!gpu_busy_) {
    auto next = std::find_if(held_.begin(), held_.end(),
                             [&](const auto& a) { return a->sequence == next_collective_; });
    if (next == held_.end()) return;
    std::shared_ptr<AllreduceItem> a = std::move(*next);
    held_.erase(next);
    ++next_collective_;
    auto x = std::make_unique<Exchange>();
    x->in = a->local();
    x->out = x->in;
    a->begin();
    if (gpu_) {
      try {
        gpu_->post(x->in, a->op->result->op, a->uid());
      } catch (const gpu::DeviceError& e) {
        failed(*a->op, "combining the result across ranks with NCCL", e.what());
      }
      x->on_gpu = gpu_busy_ = true;
    } else {
      MPI_Request r = MPI_REQUEST_NULL;
      const int rc = post_mpi_allreduce(x->in, x->out, a->op->result->op, &r);
      if (rc != MPI_SUCCESS) failed(*a->op, "combining the result across ranks", rc);
      x->requests.push_back(r);
    }
    x->item = std::move(a);
    active_.push_back(std::move(x));
  }
}

bool Network::progress() {
  bool any = false;
  for (size_t i = 0; i < active_.size();) {
    Exchange& x = *active_[i];
    if (x.probing) {
      int arrived = 0;
      const int rc = MPI_Iprobe(x.transfer->from, tag_of(x.transfer->sequence), MPI_COMM_WORLD,
                                &arrived, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) failed(*x.transfer->op, transfer_text(*x.transfer), rc);
      if (arrived == 0) {
        ++i;
        continue;
      }
      // Ready when the sender's data is there (it waited for the sender's
      // producers, recorded as its preconditions on that rank).
      x.transfer->ready_tick = rec::now();
      TransferHeader h;
      const int got = MPI_Recv(&h, sizeof h, MPI_BYTE, x.transfer->from,
                               tag_of(x.transfer->sequence), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (got != MPI_SUCCESS) failed(*x.transfer->op, transfer_text(*x.transfer), got);
      h.name[sizeof h.name - 1] = '\0';
      x.transfer->source_memory = h.memory;
      x.transfer->source_name = h.name;
      x.transfer->begin();
      post(*x.transfer, x.requests);
      x.probing = false;
      any = true;
    }
    int done = 0;
    if (x.on_gpu) {
      try {
        done = gpu_->done() ? 1 : 0;
        if (done != 0) x.out = gpu_->result();
      } catch (const gpu::DeviceError& e) {
        failed(*x.item->op, "combining the result across ranks with NCCL", e.what());
      }
    } else {
      const int rc = MPI_Testall(static_cast<int>(x.requests.size()), x.requests.data(), &done,
                                 MPI_STATUSES_IGNORE);
      if (rc != MPI_SUCCESS) {
        failed(*x.item->op, x.transfer ? transfer_text(*x.transfer) : "combining the result", rc);
      }
    }
    if (done == 0) {
      ++i;
      continue;
    }
    std::unique_ptr<Exchange> finished = std::move(active_[i]);
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
    if (finished->transfer == nullptr)
      static_cast<AllreduceItem&>(*finished->item).deliver(finished->out);
    finished->item->end();
    if (finished->on_gpu) {
      gpu_busy_ = false;
      post_collectives();
    }
    any = true;
  }
  return any;
}

void Network::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    while (!incoming_.empty()) {
      std::shared_ptr<NetItem> item = std::move(incoming_.front());
      incoming_.pop_front();
      lock.unlock();
      accept(std::move(item));
      lock.lock();
    }
    if (active_.empty()) {
      if (stopping_ && held_.empty()) return;
      cv_.wait(lock, [&] { return stopping_ || !incoming_.empty(); });
      continue;
    }
    lock.unlock();
    const bool moved = progress();
    lock.lock();
    if (!moved && incoming_.empty())
      cv_.wait_for(lock, kPollInterval, [&] { return !incoming_.empty(); });
  }
}

}  // namespace legato::rt
