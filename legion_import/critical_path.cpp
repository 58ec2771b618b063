#include "legion_import/critical_path.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "base/event_id_map.hpp"

namespace legato::legion {

namespace {

// What an event resolves to: when it triggered, and the item (by fevent)
// on the path through it. known = false for events no record produced.
// via: the type of the event record whose own performer `item` is
// (PathStep::kNoVia when the event is the item's own).
struct Resolved {
  uint64_t trigger = 0;
  uint64_t item = 0;
  bool known = false;
  uint8_t via = PathStep::kNoVia;
};

// A barrier's id (0b0010 in bits 63..60) of a phase after its first
// (generation, bits 19..0, above 1): the previous phase's; else 0.
uint64_t previous_phase(uint64_t id) {
  return (id >> 60) == 2 && (id & 0xfffff) > 1 ? id - 1 : 0;
}

// The events the critical path may look up: items' critical events and
// event records' preconditions (a barrier's previous phase among them), as
// one bit per hash of each. maybe(id) is
// true for all of them and for about a tenth of the other ids.
class LookedUp {
 public:
  // At most this many are looked up, about a bit each: in a Legate run a
  // fifth of those ids are distinct, so about a tenth of the bits are set,
  // and a 10 M-record run's bits fit in a core's L2 cache (2 MiB), which
  // matters more than letting fewer ids pass.
  explicit LookedUp(const std::vector<PathInputs*>& files) : filter_(lookups(files)) {
    for (const PathInputs* f : files) {
      ids_ += f->items.size() + f->events.size();
      for (const TimedItem& it : f->items) filter_.add(it.critical);
      for (const EventNode& e : f->events) {
        for (uint64_t p : e.pre) filter_.add(p);
        if (const uint64_t previous = previous_phase(e.result)) filter_.add(previous);
      }
    }
  }
  bool maybe(uint64_t id) const { return filter_.maybe(id); }
  // About how many of the files' items' and event records' ids pass maybe().
  size_t expected() const {
    const size_t set = filter_.bits_set();
    const double others = static_cast<double>(set) / static_cast<double>(filter_.bits());
    return set + static_cast<size_t>(others * static_cast<double>(ids_));
  }

 private:
  static size_t lookups(const std::vector<PathInputs*>& files) {
    size_t n = 0;
    for (const PathInputs* f : files) n += f->items.size() + 4 * f->events.size();
    return n;
  }
  base::IdFilter filter_;
  size_t ids_ = 0;  // the files' items and event records
};

// The event graph of one or more files, events looked up through one id
// map (an item's fevent, else an event record's result; only those that
// LookedUp may look up) and resolved events memoised in their records
// (Memo).
class Graph {
 public:
  explicit Graph(const std::vector<PathInputs*>& files) : files_(files) {
    // Only ids that something looks up need a place: in a Legate run, about
    // a quarter of the items' events.
    const LookedUp looked_up(files);
    // An item's event before an event record's: items are found first.
    where_.build(
        [&](auto&& f) {
          for (size_t k = 0; k < files.size(); ++k) {
            const auto& items = files[k]->items;
            for (size_t i = 0; i < items.size(); ++i)
              if (looked_up.maybe(items[i].fevent)) f(items[i].fevent, kItem | at(k, i));
          }
          for (size_t k = 0; k < files.size(); ++k) {
            const auto& events = files[k]->events;
            for (size_t i = 0; i < events.size(); ++i)
              if (looked_up.maybe(events[i].result)) f(events[i].result, at(k, i));
          }
        },
        looked_up.expected(),
        [&](uint64_t, Where first, Where later) {
          if (!is_item(first) && !is_item(later)) repeats_.emplace_back(first, later);
        });
    std::sort(repeats_.begin(), repeats_.end());
  }

  Resolved resolve(uint64_t event) {
    const Where* w = where_.find(event);
    if (!w) return Resolved{};
    if (is_item(*w)) return Resolved{item(*w).stop, event, true, PathStep::kNoVia};
    if (const Memo m(event_node(*w)); m.done()) return m.resolved();
    // Iterative depth-first: a node is computed once all its preconditions are.
    stack_.assign(1, {*w, false});
    while (!stack_.empty()) {
      const auto [n, expanded] = stack_.back();
      EventNode& node = event_node(n);
      Memo m(node);
      if (m.done()) {
        stack_.pop_back();
        continue;
      }
      if (!expanded) {
        stack_.back().second = true;
        m.visit();
        each_precondition(n, [&](uint64_t p) {
          const Where* pw = where_.find(p);
          if (pw && !is_item(*pw) && Memo(event_node(*pw)).unseen())
            stack_.emplace_back(*pw, false);
        });
        continue;
      }
      stack_.pop_back();
      // The precondition that triggered last (a completion queue: first)
      // gated this event if it triggered after the event was created;
      // otherwise the event itself did, and its performer is on the path.
      // An event several records produce (a barrier's arrivals, from every
      // node) was performed by the last of them, after all their
      // preconditions.
      Resolved best;
      Resolved self{node.performed, node.performer, true, node.type};
      each_record(n, [&](const EventNode& record) {
        if (record.performed > self.trigger)
          self = Resolved{record.performed, record.performer, true, record.type};
      });
      each_precondition(n, [&](uint64_t p) {
        const Where* pw = where_.find(p);
        if (!pw) return;  // no record produced it
        Resolved r;
        if (is_item(*pw)) {
          r = Resolved{item(*pw).stop, p, true, PathStep::kNoVia};
        } else if (const Memo pm(event_node(*pw)); pm.done()) {
          r = pm.resolved();
        } else {
          return;  // a cycle
        }
        if (!r.known) return;
        const bool better =
            !best.known || (node.type == EventNode::CompletionQueue ? r.trigger < best.trigger
                                                                    : r.trigger > best.trigger);
        if (better) best = r;
      });
      m.resolve(best.known && best.trigger > self.trigger ? best : self);
    }
    return Memo(event_node(*w)).resolved();
  }

  // Starts loading what resolving `event` reads, one stage at a time: 0,
  // its slot; 1, its record; 2, its preconditions' slots; 3, their items or
  // records. Each stage needs the last one's lines in the
  // cache, so a loop runs the stages for items a few apart. Always inlined,
  // or the prefetches are dropped (base::IdMap::prefetch).
  [[gnu::always_inline]] void prefetch(uint64_t event, int stage) const {
    if (stage == 0) return where_.prefetch(event);
    const Where* w = where_.find(event);
    if (!w || is_item(*w)) return;
    const EventNode& node = event_node(*w);
    if (stage == 1) {
      base::prefetch(&node);
      return base::prefetch(reinterpret_cast<const char*>(&node) + sizeof(node) - 1);
    }
    if (Memo(event_node(*w)).done()) return;
    for (uint64_t p : node.pre) {
      if (p == 0) continue;
      if (stage == 2) {
        where_.prefetch(p);
      } else if (const Where* pw = where_.find(p)) {
        if (is_item(*pw)) {
          base::prefetch(&item(*pw));
        } else {
          base::prefetch(&event_node(*pw));
        }
      }
    }
  }

  // Each file's items, file after file: f(file, index, item). The lookups
  // of the items' critical events are prefetched ahead (prefetch).
  template <class F>
  void each_item(F&& f) const {
    constexpr size_t kStride = 8;  // items between two prefetch stages
    for (size_t k = 0; k < files_.size(); ++k) {
      const auto& items = files_[k]->items;
      const size_t n = items.size();
      for (size_t i = 0; i < n; ++i) {
        for (int s = 0; s < 4; ++s) {
          const size_t j = i + (4 - s) * kStride;
          if (j < n && items[j].critical != 0) prefetch(items[j].critical, s);
        }
        f(k, i, items[i]);
      }
    }
  }

 private:
  // Where an event is: an item's fevent (kItem set), else an event
  // record's result; the file's index and the index in its table. Eight
  // bytes, so the map's slots take half the cache lines.
  using Where = uint64_t;
  static constexpr Where kItem = Where{1} << 63;
  static constexpr int kFileShift = 40;  // up to 2^40 items or events per file
  static Where at(size_t file, size_t i) { return Where{file} << kFileShift | i; }
  static bool is_item(Where w) { return (w & kItem) != 0; }
  static size_t file(Where w) { return static_cast<size_t>((w & ~kItem) >> kFileShift); }
  static size_t index(Where w) { return static_cast<size_t>(w & ((Where{1} << kFileShift) - 1)); }
  const TimedItem& item(Where w) const { return files_[file(w)]->items[index(w)]; }
  EventNode& event_node(Where w) const { return files_[file(w)]->events[index(w)]; }
  // An event record's resolution, kept in the record: its resolution bits,
  // and once done, its performed time and performer become the trigger and
  // item it resolved to (nothing reads them as the record's own after).
  class Memo {
   public:
    static constexpr uint8_t kVisiting = 1, kDone = 2, kKnown = 4;
    explicit Memo(EventNode& node) : node_(node) {}
    bool done() const { return node_.resolution & kDone; }
    bool unseen() const { return node_.resolution == 0; }
    void visit() { node_.resolution = kVisiting; }
    void resolve(const Resolved& r) {
      node_.performed = r.trigger;
      node_.performer = r.item;
      node_.via = r.via;
      node_.resolution = kDone | (r.known ? kKnown : 0);
    }
    Resolved resolved() const {
      return Resolved{node_.performed, node_.performer, (node_.resolution & kKnown) != 0,
                      node_.via};
    }

   private:
    EventNode& node_;
  };

  // The records of the event at w: its first record (the one where_
  // finds), then those that repeat its result (repeats_), f(record) each.
  template <class F>
  void each_record(Where w, F&& f) {
    f(std::as_const(event_node(w)));
    if (repeats_.empty()) return;
    auto it = std::lower_bound(repeats_.begin(), repeats_.end(), std::make_pair(w, Where{0}));
    for (; it != repeats_.end() && it->first == w; ++it) f(std::as_const(event_node(it->second)));
  }

  // The events the event at w waited for: its records' preconditions and,
  // for a barrier, its previous phase (Realm triggers a barrier's phases in
  // order, as legion_prof links them): f(event id) each.
  template <class F>
  void each_precondition(Where w, F&& f) {
    each_record(w, [&](const EventNode& record) {
      for (uint64_t p : record.pre)
        if (p != 0) f(p);
    });
    if (const uint64_t previous = previous_phase(event_node(w).result)) f(previous);
  }

  const std::vector<PathInputs*>& files_;
  base::EventIdMap<Where, ~Where{0}> where_;
  // (first record, a later record of the same result), sorted: the records
  // that repeat an event's result, a barrier's arrivals above all.
  std::vector<std::pair<Where, Where>> repeats_;
  std::vector<std::pair<Where, bool>> stack_;
};

}  // namespace

void critical_path_steps(const std::vector<PathInputs*>& files,
                         const std::function<void(size_t, size_t, const PathStep&)>& step) {
  Graph g(files);
  g.each_item([&](size_t file, size_t i, const TimedItem& it) {
    if (it.critical != 0) {
      const Resolved r = g.resolve(it.critical);
      // Created before its precondition triggered: that precondition's
      // producer held it back. Otherwise it was launched late: its creator.
      // A handshake from outside Legion held it back: no item did.
      if (r.known && it.create < r.trigger) {
        if (r.item != 0) return step(file, i, PathStep{r.item, true, r.via});
        if (r.via == EventNode::Handshake) return step(file, i, PathStep{0, true, r.via});
      }
    }
    step(file, i, PathStep{it.creator, false, PathStep::kNoVia});
  });
}

}  // namespace legato::legion
