#include "viewer/camera.hpp"

#include <algorithm>

namespace legato::viewer {

namespace {
constexpr double kMinSpan = 10;  // ns
constexpr size_t kHistory = 200;
}  // namespace

void Camera::fit(analysis::Time start, analysis::Time stop) {
  fit(start, stop, start);
}

void Camera::fit(analysis::Time start, analysis::Time stop, analysis::Time origin) {
  origin_ = static_cast<double>(origin);
  start_ = static_cast<double>(start);
  stop_ = std::max(static_cast<double>(stop), start_ + 1000);
  undo_.clear();
  redo_.clear();
  t0_ = start_;
  t1_ = stop_;
  scroll_ = 0;
}

void Camera::set(double a, double b, bool remember) {
  if (b < a) std::swap(a, b);
  const double max_span = std::max((stop_ - start_) * 1.2, 1000.0);
  const double w = std::clamp(b - a, kMinSpan, max_span), c = (a + b) / 2;
  a = c - w / 2;
  b = c + w / 2;
  // Keep some of the run on screen.
  const double margin = w * 0.9;
  if (b < start_ + w - margin) a = start_ - margin, b = a + w;
  if (a > stop_ - w + margin) a = stop_ - w + margin, b = a + w;
  if (a == t0_ && b == t1_) return;
  if (remember) push_undo(t0_, t1_);
  t0_ = a;
  t1_ = b;
}

void Camera::zoom(double factor, double at) {
  const double t = t0_ + at * span();
  set(t - (t - t0_) * factor, t + (t1_ - t) * factor);
}

void Camera::pan(double fraction) {
  const double d = fraction * span();
  set(t0_ + d, t1_ + d, false);
}

void Camera::reset() {
  set(start_, stop_);
}

void Camera::remember(double a, double b) {
  if (a != t0_ || b != t1_) push_undo(a, b);
}

void Camera::push_undo(double a, double b) {
  undo_.push_back({a, b});
  if (undo_.size() > kHistory) undo_.erase(undo_.begin());
  redo_.clear();
}

// Goes back (or forward) one window, keeping the current one on the other stack.
bool Camera::step(std::vector<Span>& from, std::vector<Span>& to) {
  if (from.empty()) return false;
  to.push_back({t0_, t1_});
  t0_ = from.back().a;
  t1_ = from.back().b;
  from.pop_back();
  return true;
}

bool Camera::undo() {
  return step(undo_, redo_);
}

bool Camera::redo() {
  return step(redo_, undo_);
}

void Camera::set_scroll(float y, float content, float visible) {
  scroll_ = std::clamp(y, 0.f, std::max(0.f, content - visible));
}

}  // namespace legato::viewer
