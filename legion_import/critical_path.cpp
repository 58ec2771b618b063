#include "legion_import/critical_path.hpp"

#include <utility>

#include "legion_import/id_map.hpp"

namespace legato::legion {

namespace {

// What an event resolves to: when it triggered, and the item (by fevent)
// on the path through it. known = false for events no record produced.
struct Resolved {
  uint64_t trigger = 0;
  uint64_t item = 0;
  bool known = false;
};

// The event graph of one or more files, events looked up through one id
// map (an item's fevent, else an event record's result) and resolved
// events memoised per event record.
class Graph {
 public:
  explicit Graph(const std::vector<const PathInputs*>& files) {
    size_t items = 0, events = 0;
    for (const PathInputs* f : files) {
      items += f->items.size();
      events += f->events.size();
    }
    where_.reserve(items + events);
    reserve_huge(items_, items);
    reserve_huge(events_, events);
    reserve_huge(memo_, events);
    constexpr size_t kAhead = 8;  // keys prefetched ahead (IdMap::prefetch)
    for (const PathInputs* f : files) {
      for (size_t i = 0; i < f->items.size(); ++i) {
        if (i + kAhead < f->items.size()) where_.prefetch(f->items[i + kAhead].fevent);
        const TimedItem& it = f->items[i];
        if (it.fevent != 0) where_.try_emplace(it.fevent, item_at(items_.size()));
        items_.push_back(&it);
      }
    }
    for (const PathInputs* f : files) {
      for (size_t i = 0; i < f->events.size(); ++i) {
        if (i + kAhead < f->events.size()) where_.prefetch(f->events[i + kAhead].result);
        const EventNode& e = f->events[i];
        if (e.result != 0) where_.try_emplace(e.result, events_.size());
        events_.push_back(&e);
      }
    }
    memo_.resize(events_.size());
  }

  size_t items() const { return items_.size(); }
  const TimedItem& item(size_t i) const { return *items_[i]; }

  Resolved resolve(uint64_t event) {
    const Where* w = where_.find(event);
    if (!w) return Resolved{};
    if (is_item(*w)) return Resolved{items_[index(*w)]->stop, event, true};
    if (memo_[index(*w)].done) return memo_[index(*w)].r;
    // Iterative depth-first: a node is computed once all its preconditions are.
    stack_.assign(1, {index(*w), false});
    while (!stack_.empty()) {
      const auto [n, expanded] = stack_.back();
      Memo& memo = memo_[n];
      if (memo.done) {
        stack_.pop_back();
        continue;
      }
      const EventNode& node = *events_[n];
      if (!expanded) {
        stack_.back().second = true;
        memo.visiting = true;
        for (uint64_t p : node.pre) {
          const Where* pw = p == 0 ? nullptr : where_.find(p);
          if (pw && !is_item(*pw) && !memo_[index(*pw)].done && !memo_[index(*pw)].visiting)
            stack_.emplace_back(index(*pw), false);
        }
        continue;
      }
      stack_.pop_back();
      // The precondition that triggered last (a completion queue: first)
      // gated this event if it triggered after the event was created;
      // otherwise the event itself did, and its performer is on the path.
      Resolved best;
      for (uint64_t p : node.pre) {
        const Where* pw = p == 0 ? nullptr : where_.find(p);
        if (!pw) continue;  // no record produced it
        Resolved r;
        if (is_item(*pw)) {
          r = Resolved{items_[index(*pw)]->stop, p, true};
        } else if (memo_[index(*pw)].done) {
          r = memo_[index(*pw)].r;
        } else {
          continue;  // a cycle
        }
        if (!r.known) continue;
        const bool better =
            !best.known || (node.type == EventNode::CompletionQueue ? r.trigger < best.trigger
                                                                    : r.trigger > best.trigger);
        if (better) best = r;
      }
      memo.visiting = false;
      memo.done = true;
      memo.r = best.known && best.trigger > node.performed
                   ? best
                   : Resolved{node.performed, node.performer, true};
    }
    return memo_[index(*w)].r;
  }

 private:
  // Where an event is: an item's fevent (kItem set, the rest an index into
  // items_), else an event record's result (an index into events_). Eight
  // bytes, so the map's values take half the cache lines.
  using Where = uint64_t;
  static constexpr Where kItem = Where{1} << 63;
  static Where item_at(size_t i) { return kItem | i; }
  static bool is_item(Where w) { return (w & kItem) != 0; }
  static size_t index(Where w) { return static_cast<size_t>(w & ~kItem); }
  struct Memo {
    Resolved r;
    bool done = false, visiting = false;
  };
  IdMap<Where> where_;
  std::vector<const TimedItem*> items_;
  std::vector<const EventNode*> events_;
  std::vector<Memo> memo_;  // per events_
  std::vector<std::pair<size_t, bool>> stack_;
};

}  // namespace

std::vector<PathStep> critical_path_steps(const std::vector<const PathInputs*>& files) {
  Graph g(files);
  std::vector<PathStep> out;
  reserve_huge(out, g.items());
  out.resize(g.items());
  for (size_t i = 0; i < g.items(); ++i) {
    const TimedItem& it = g.item(i);
    if (it.critical != 0) {
      const Resolved r = g.resolve(it.critical);
      // Created before its precondition triggered: that precondition's
      // producer held it back. Otherwise it was launched late: its creator.
      if (r.known && r.item != 0 && it.create < r.trigger) {
        out[i] = PathStep{r.item, true};
        continue;
      }
    }
    out[i] = PathStep{it.creator, false};
  }
  return out;
}

}  // namespace legato::legion
