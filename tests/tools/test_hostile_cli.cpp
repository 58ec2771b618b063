// legate_prof's options and outputs against hostile use: an output that is
// one of the inputs (by another name, a link, a redirection of standard
// output), options given several values, numeric options given negative,
// zero, huge, NaN or non-numeric values, and what --help promises. Files:
// test_hostile_inputs.cpp.
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/crafted_traces.hpp"
#include "tools/hostile_commands.hpp"
#include "viewer/xvfb_view.hpp"  // have_xvfb

using namespace legato;
using namespace legato::testing;
using namespace legato::testing::hostile;
using namespace legato::analysis::testing;

TEST_CASE("an output that is one of the inputs is a usage error, before anything is read",
          "[hostile][same-file]") {
  TempDir dir;
  std::filesystem::create_directories(dir.file("report"));
  const std::string index = dir.file("report/index.html");
  const auto fresh = [&] {
    std::filesystem::remove(index);
    write_two_frame_trace(index);
    return trace::testing::read_bytes(index);
  };
  SECTION(
      "archive -o DIR where DIR/index.html is an input: by its path, another spelling, a link") {
    write_two_frame_trace(dir.file("other.prof"));
    std::filesystem::create_symlink(index, dir.file("link.prof"));
    for (const std::string& input :
         {index, dir.file("report/../report/./index.html"), dir.file("link.prof")}) {
      INFO(input);
      const auto before = fresh();
      const auto r = run_command(
          prof("archive " + dir.file("other.prof") + " " + input + " -o " + dir.file("report")));
      CHECK(r.status == 2);
      CHECK_THAT(r.err, Catch::StartsWith("legate_prof archive: the output " + index +
                                          " is the input " + input));
      CHECK(trace::testing::read_bytes(index) == before);
    }
    // A hard link of the input at DIR/index.html.
    std::filesystem::remove(index);
    std::filesystem::create_hard_link(dir.file("other.prof"), index);
    const auto r =
        run_command(prof("archive " + dir.file("other.prof") + " -o " + dir.file("report")));
    CHECK(r.status == 2);
    CHECK(std::filesystem::hard_link_count(dir.file("other.prof")) == 2);
  }
  SECTION("view --screenshot onto an input, and a script's screenshot or dump onto one") {
    const auto before = fresh();
    auto r = run_command("env -u DISPLAY " + prof("view " + index + " --screenshot " + index));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::StartsWith("legate_prof view: the output " + index + " is the input " +
                                        index));
    for (const char* step : {"screenshot", "dump"}) {
      std::ofstream(dir.file("script.txt")) << "wait 1\n" << step << " " << index << "\n";
      r = run_command("env -u DISPLAY " +
                      prof("view " + index + " --script " + dir.file("script.txt")));
      CHECK(r.status == 2);
    }
    CHECK(trace::testing::read_bytes(index) == before);
  }
  SECTION("standard output redirected into an input") {
    const auto before = fresh();
    for (const char* sub : {"info", "dump", "stats", "findings", "archive"}) {
      INFO(sub);
      const std::string out = std::string(sub) == "archive" ? " -o " + dir.file("r2") : "";
      const auto r = run_command(prof(std::string(sub) + " " + index + out + " >> " + index));
      CHECK(r.status == 2);
      CHECK(r.err == "legate_prof " + std::string(sub) + ": standard output is the input " + index +
                         " (a redirection into it, which may already have emptied it); redirect "
                         "the output to another file\n");
      CHECK(trace::testing::read_bytes(index) == before);
    }
  }
}

TEST_CASE("options that take one value take exactly one", "[hostile][cli]") {
  TempDir dir;
  const std::string t = dir.file("t.prof");
  write_two_frame_trace(t);
  // The order --help shows: options, then files.
  auto r = run_command(prof("findings --threshold tiny_tasks.min_tasks=1 " + t));
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("(tiny_tasks)"));
  r =
      run_command(prof("findings --threshold tiny_tasks.min_tasks=1 --threshold "
                       "micro_copies.min_copies=2 " +
                       t + " --json"));
  CHECK(r.status == 0);
  CHECK(parses_as_json(r.out));
  // A second word after --threshold is a file, not a second threshold.
  r = run_command(
      prof("findings --threshold tiny_tasks.min_tasks=1 tiny_tasks.min_share=0.1 " + t));
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::StartsWith("legate_prof findings: tiny_tasks.min_share=0.1: cannot "
                                      "open: No such file or directory\n"));
  CHECK_THAT(r.out, Catch::Contains("(tiny_tasks)"));
  r = run_command(prof("findings " + t + " --threshold"));
  CHECK(r.status == 2);
  r = run_command(prof("dump --kind task " + t));
  CHECK(r.status == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 6);  // 2 tasks and 4 frame lines
  r = run_command(prof("dump --no-frames --kind task --kind task_kind " + t));
  CHECK(r.status == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3);
}

TEST_CASE("numeric options: negative, zero, huge, NaN and words are usage errors",
          "[hostile][cli]") {
  TempDir dir;
  const std::string t = dir.file("t.prof");
  write_two_frame_trace(t);
  for (const char* top : {"-1", "nan", "inf", "1.5", "1e3", " 3", "+3", "0x10",
                          "99999999999999999999", "3 4", "three"}) {
    INFO("--top '" << top << "'");
    const auto r = run_command(prof("stats --top=" + sh(top) + " " + t));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--top"));
    CHECK(r.out.empty());
  }
  for (const char* top : {"0", "1", "18446744073709551615"}) {
    INFO("--top " << top);
    CHECK(run_command(prof("stats --top " + std::string(top) + " " + t)).status == 0);
  }
  for (const char* size :
       {"-800x600", "800x-600", "0x0", "nanxnan", "99999999999x900", "4294968096x900",
        "800x600junk", "800 x600", "320x199", "x", "800x", "+800x600", "800.5x600"}) {
    INFO("--size '" << size << "'");
    const auto r = run_command("env -u DISPLAY " + prof("view " + t + " --size=" + sh(size)));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--size"));
  }
  for (const char* range :
       {"nan:1ms", "inf:", "1ms:nan", "1e400:", "0:-inf", "2ms:1ms", "-1ms:2ms", "x:y", ":"}) {
    INFO("--range '" << range << "'");
    const auto r = run_command("env -u DISPLAY " + prof("view " + t + " --range=" + sh(range)));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--range"));
  }
  for (const char* nodes : {"", "x", "3-1", "1,,2", "-1", "0-", "99999999999", "1;2"}) {
    INFO("--nodes '" << nodes << "'");
    const auto r = run_command("env -u DISPLAY " + prof("view " + t + " --nodes=" + sh(nodes)));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--nodes"));
    if (*nodes) {
      CHECK_THAT(r.err,
                 Catch::StartsWith("legate_prof view: --nodes " + std::string(nodes) + ": "));
    }
  }
}

TEST_CASE("help texts name the commands, list what they promise, and print JSON when asked",
          "[hostile][help]") {
  const std::string bin_dir = LEGATO_BIN_DIR;
  const auto top = run_command(prof("--help"));
  CHECK(top.status == 0);
  CHECK_THAT(top.out, Catch::Contains("Usage: legate_prof [OPTIONS] SUBCOMMAND"));
  CHECK_THAT(top.out, Catch::Contains("legate_prof SUBCOMMAND --help"));
  CHECK_THAT(top.out, !Catch::Contains(bin_dir));
  for (const char* sub : {"info", "dump", "stats", "findings", "archive", "view"}) {
    INFO(sub);
    const auto r = run_command(prof(std::string(sub) + " --help"));
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("Usage: legate_prof " + std::string(sub) + " "));
    CHECK_THAT(r.out, !Catch::Contains(bin_dir));
    CHECK_THAT(r.out, !Catch::Contains("{false}") && !Catch::Contains("{true}"));
    CHECK_THAT(r.out, Catch::Contains("Exit status, for every subcommand"));
  }
  // view's help lists every step a script can take, and no source file.
  const auto view = run_command(prof("view --help"));
  CHECK_THAT(view.out, !Catch::Contains(".hpp"));
  TempDir dir;
  std::ofstream(dir.file("bad.txt")) << "no-such-step\n";
  const auto bad = run_command(prof("view --script " + dir.file("bad.txt")));
  const size_t at = bad.err.find("(steps: ");
  REQUIRE(at != std::string::npos);
  std::istringstream steps(bad.err.substr(at + 8, bad.err.find(')', at) - at - 8));
  size_t listed = 0;
  for (std::string step; std::getline(steps, step, ',');) {
    step.erase(0, step.find_first_not_of(' '));
    INFO(step);
    CHECK_THAT(view.out,
               Catch::Contains("\n  " + step + " ") || Catch::Contains("\n  " + step + "\n"));
    ++listed;
  }
  CHECK(listed >= 20);
  // findings --list-rules --json: the rules and each parameter's default,
  // unit and meaning, as --list-rules prints them.
  const auto rules = run_command(prof("findings --list-rules --json"));
  CHECK(rules.status == 0);
  REQUIRE(parses_as_json(rules.out));
  const auto j = nlohmann::json::parse(rules.out);
  const auto text = run_command(prof("findings --list-rules")).out;
  size_t params = 0;
  for (const auto& rule : j["rules"]) {
    CHECK_THAT(text, Catch::Contains(rule["rule"].get<std::string>() + ": " +
                                     rule["title"].get<std::string>()));
    for (const auto& p : rule["params"]) {
      CHECK(p["default"].is_number());
      CHECK_FALSE(p["unit"].get<std::string>().empty());
      CHECK_FALSE(p["meaning"].get<std::string>().empty());
      CHECK_THAT(text, Catch::Contains(p["threshold"].get<std::string>() + " = "));
      ++params;
    }
  }
  CHECK(j["rules"].size() >= 10);
  CHECK(params >= 20);
}
