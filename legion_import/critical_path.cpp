#include "legion_import/critical_path.hpp"

#include <unordered_map>
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
    for (const auto& it : items) {
      if (it.fevent != 0) item_stop_.try_emplace(it.fevent, it.stop);
    }
    for (size_t i = 0; i < events.size(); ++i) {
      if (events[i].result != 0) node_.try_emplace(events[i].result, i);
    }
  }

  Resolved resolve(uint64_t event) {
    if (const auto m = memo_.find(event); m != memo_.end()) return m->second;
    // Iterative depth-first: a node is computed once all its preconditions are.
    std::vector<std::pair<uint64_t, bool>> stack{{event, false}};
    while (!stack.empty()) {
      auto [e, expanded] = stack.back();
      if (memo_.count(e)) {
        stack.pop_back();
        continue;
      }
      if (const auto s = item_stop_.find(e); s != item_stop_.end()) {
        memo_[e] = Resolved{s->second, e, true};
        stack.pop_back();
        continue;
      }
      const auto n = node_.find(e);
      if (n == node_.end()) {
        memo_[e] = Resolved{};
        stack.pop_back();
        continue;
      }
      const EventNode& node = events_[n->second];
      if (!expanded) {
        stack.back().second = true;
        visiting_[e] = true;
        for (uint64_t p : node.pre) {
          if (p != 0 && !memo_.count(p) && !visiting_[p]) stack.emplace_back(p, false);
        }
        continue;
      }
      stack.pop_back();
      visiting_[e] = false;
      // The precondition that triggered last (a completion queue: first)
      // gated this event if it triggered after the event was created;
      // otherwise the event itself did, and its performer is on the path.
      Resolved best;
      for (uint64_t p : node.pre) {
        if (p == 0) continue;
        const auto m = memo_.find(p);
        if (m == memo_.end() || !m->second.known) continue;  // unknown or a cycle
        const bool better = !best.known || (node.type == EventNode::CompletionQueue
                                                ? m->second.trigger < best.trigger
                                                : m->second.trigger > best.trigger);
        if (better) best = m->second;
      }
      if (best.known && best.trigger > node.performed) {
        memo_[e] = best;
      } else {
        memo_[e] = Resolved{node.performed, node.performer, true};
      }
    }
    return memo_[event];
  }

 private:
  const std::vector<EventNode>& events_;
  std::unordered_map<uint64_t, uint64_t> item_stop_;  // fevent -> stop
  std::unordered_map<uint64_t, size_t> node_;         // result -> events_ index
  std::unordered_map<uint64_t, Resolved> memo_;
  std::unordered_map<uint64_t, bool> visiting_;
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
