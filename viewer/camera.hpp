// The visible time window and vertical scroll, with undo and redo of window
// changes. Times are nanoseconds in the model's (rank 0 aligned) clock.
#pragma once

#include <vector>

#include "analysis/profile.hpp"

namespace legato::viewer {

class Camera {
 public:
  // The span loaded; resets the window to all of it. origin: where times
  // count from (the run's start when only part of it is loaded).
  void fit(analysis::Time start, analysis::Time stop);
  void fit(analysis::Time start, analysis::Time stop, analysis::Time origin);

  double t0() const { return t0_; }
  double t1() const { return t1_; }
  double span() const { return t1_ - t0_; }
  double run_start() const { return origin_; }

  // Shows [a, b] (clamped to at least 10 ns and at most 1.2x the run);
  // remember: the previous window goes on the undo stack.
  void set(double a, double b, bool remember = true);
  // factor < 1 zooms in; at: the fixed point as a fraction of the width.
  void zoom(double factor, double at = 0.5);
  // Moves by a fraction of the width (positive: later).
  void pan(double fraction);
  void reset();
  // Puts [a, b] on the undo stack (a drag that moved the window ended).
  void remember(double a, double b);
  bool undo();
  bool redo();
  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }

  float scroll() const { return scroll_; }
  // Clamped to [0, content - visible].
  void set_scroll(float y, float content, float visible);

  double x_of(double t, float width) const { return (t - t0_) / (t1_ - t0_) * width; }
  double time_at(double x, float width) const { return t0_ + x / width * (t1_ - t0_); }

 private:
  void push_undo(double a, double b);
  struct Span {
    double a, b;
  };
  double start_ = 0, stop_ = 1000, origin_ = 0;
  double t0_ = 0, t1_ = 1000;
  float scroll_ = 0;
  std::vector<Span> undo_, redo_;
  bool step(std::vector<Span>& from, std::vector<Span>& to);
};

}  // namespace legato::viewer
