#include "legion_import/critical_path.hpp"

#include "legion_import/id_map.hpp"

#include <utility>

namespace legato::legion {

namespace {

// What an event resolves to: when it triggered, and the item (by fevent)
// on the path through it. known = false for events no record produced.
struct Resolved {
  uint64_t trigger = 0;
  uint64_t item = 0;
  bool known = false;
};

class Graph {
 public:
  Graph(const std::vector<TimedItem>& items, const std::vector<EventNode>& events)
      : events_(events) {
    item_stop_.reserve(items.size());
    node_.reserve(events.size());
    for (const auto& it : items) {
      if (it.fevent != 0) item_stop_.try_emplace(it.fevent, it.stop);
    }
    for (size_t i = 0; i < events.size(); ++i) {
      if (events[i].result != 0) node_.try_emplace(events[i].result, i);
    }
  }

  Resolved resolve(uint64_t event) {
    if (const Memo* m = memo_.find(event); m && m->done) return m->r;
    // Iterative depth-first: a node is computed once all its preconditions are.
    std::vector<std::pair<uint64_t, bool>>& stack = stack_;
    stack.assign(1, {event, false});
    while (!stack.empty()) {
      auto [e, expanded] = stack.back();
      Memo& memo = memo_[e];
      if (memo.done) {
        stack.pop_back();
        continue;
      }
      if (const uint64_t* stop = item_stop_.find(e)) {
        memo = Memo{Resolved{*stop, e, true}, true, false};
        stack.pop_back();
        continue;
      }
      const size_t* n = node_.find(e);
      if (!n) {
        memo = Memo{Resolved{}, true, false};
        stack.pop_back();
        continue;
      }
      const EventNode& node = events_[*n];
      if (!expanded) {
        stack.back().second = true;
        memo.visiting = true;
        for (uint64_t p : node.pre) {
          if (p == 0) continue;
          const Memo* pm = memo_.find(p);
          if (!pm || (!pm->done && !pm->visiting)) stack.emplace_back(p, false);
        }
        continue;
      }
      stack.pop_back();
      // The precondition that triggered last (a completion queue: first)
      // gated this event if it triggered after the event was created;
      // otherwise the event itself did, and its performer is on the path.
      Resolved best;
      for (uint64_t p : node.pre) {
        if (p == 0) continue;
        const Memo* m = memo_.find(p);
        if (!m || !m->done || !m->r.known) continue;  // unknown or a cycle
        const bool better =
            !best.known || (node.type == EventNode::CompletionQueue ? m->r.trigger < best.trigger
                                                                    : m->r.trigger > best.trigger);
        if (better) best = m->r;
      }
      Memo& done = memo_[e];  // the map may have grown since `memo`
      done.visiting = false;
      done.done = true;
      done.r = best.known && best.trigger > node.performed
                   ? best
                   : Resolved{node.performed, node.performer, true};
    }
    return memo_.find(event)->r;
  }

 private:
  struct Memo {
    Resolved r;
    bool done = false, visiting = false;
  };
  const std::vector<EventNode>& events_;
  IdMap<uint64_t> item_stop_;  // fevent -> stop
  IdMap<size_t> node_;         // result -> events_ index
  IdMap<Memo> memo_;
  std::vector<std::pair<uint64_t, bool>> stack_;
};

}  // namespace

std::vector<PathStep> critical_path_steps(const std::vector<TimedItem>& items,
                                          const std::vector<EventNode>& events) {
  Graph g(items, events);
  std::vector<PathStep> out(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const TimedItem& it = items[i];
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
