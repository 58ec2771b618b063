#include "viewer/findings_job.hpp"

namespace legato::viewer {

FindingsJob::~FindingsJob() {
  clear();
}

void FindingsJob::start(const analysis::Profile& p) {
  clear();
  done_.store(false, std::memory_order_release);
  worker_ = std::thread([this, &p] {
    try {
      result_ = analysis::find(p);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
    done_.store(true, std::memory_order_release);
  });
}

void FindingsJob::clear() {
  if (worker_.joinable()) worker_.join();
  result_ = analysis::Findings{};
  error_.clear();
  done_.store(true, std::memory_order_release);
}

analysis::Findings FindingsJob::take(std::string* error) {
  if (worker_.joinable()) worker_.join();
  *error = std::move(error_);
  error_.clear();
  analysis::Findings out = std::move(result_);
  result_ = analysis::Findings{};
  return out;
}

}  // namespace legato::viewer
