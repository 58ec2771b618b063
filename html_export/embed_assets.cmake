# Writes OUT: a C++ source defining the report assets as raw string literals.
# Run at build time: cmake -DASSETS=<dir> -DOUT=<file> -P embed_assets.cmake
set(content "// Generated from html_export/assets by embed_assets.cmake.\n#include \"html_export/report_assets.hpp\"\n\nnamespace legato::html {\n")
# The script is its parts in order: data decoding and loading, the profile's
# questions, the timeline, the findings, the panels (which start the page).
foreach(pair "kReportHtml:report.html" "kReportCss:report.css"
             "kReportJs:report_data.js,report_profile.js,report_view.js,report_findings.js,report_link.js,report_panels.js")
  string(REPLACE ":" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 files)
  string(REPLACE "," ";" files "${files}")
  set(text "")
  foreach(file ${files})
    file(READ "${ASSETS}/${file}" part)
    string(APPEND text "${part}")
  endforeach()
  string(FIND "${text}" ")legato_asset\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${files} contain the raw string delimiter )legato_asset\"")
  endif()
  string(APPEND content "extern const char* const ${name};\nconst char* const ${name} = R\"legato_asset(${text})legato_asset\";\n")
endforeach()
string(APPEND content "\n}  // namespace legato::html\n")
file(WRITE "${OUT}.tmp" "${content}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
