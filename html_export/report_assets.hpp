// The report's page, style and script (html_export/assets/), compiled in.
#pragma once

namespace legato::html {

extern const char* const kReportHtml;
extern const char* const kReportCss;
extern const char* const kReportJs;

}  // namespace legato::html
