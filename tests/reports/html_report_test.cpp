#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "Popen.hpp"
#include "ReportFixture.hpp"
#include "TempDir.hpp"
#include "reports/csv/ReportTables.hpp"
#include "reports/html/HtmlReportWriter.hpp"
#include "reports/html/HtmlText.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::reports {
namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

class ReportHtml : public ::testing::Test {
  protected:
    void SetUp() override {
        testing::write_report_database(dir_ / "results.db");
        const ResultsDatabase db(dir_ / "results.db", OpenMode::ReadOnly);
        RunParts parts;
        parts.steps = true;
        input_.title = "results <&> \"db\".db";
        input_.matrices = list_matrices(db);
        input_.runs = load_runs(db, {}, parts);
        ReportSelection selection = ReportSelection::nothing();
        selection.breakdowns = true;
        input_.kernels = build_report_tables(db, input_.runs, selection, {}).breakdowns;
        report_ = dir_ / "report.html";
        write_html_report(input_, report_);
        html_ = read_file(report_);
    }

    testing::TempDir dir_;
    HtmlReportInput input_;
    std::filesystem::path report_;
    std::string html_;
};

TEST(ReportHtmlText, EscapesEverythingHtmlCares) {
    EXPECT_EQ(html_escape("<a href=\"x\">&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
}

TEST_F(ReportHtml, IsOneSelfContainedFileWithEscapedText) {
    EXPECT_FALSE(std::filesystem::exists(dir_ / "report.html.tmp"));
    EXPECT_EQ(html_.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html_.find("http://"), std::string::npos);
    EXPECT_EQ(html_.find("https://"), std::string::npos);
    EXPECT_EQ(html_.find("<script"), std::string::npos);
    EXPECT_EQ(html_.find("<link"), std::string::npos);
    EXPECT_EQ(html_.find("@import"), std::string::npos);
    EXPECT_EQ(html_.find("url("), std::string::npos);
    EXPECT_NE(html_.find("results &lt;&amp;&gt; &quot;db&quot;.db"), std::string::npos);
    EXPECT_NE(html_.find("Test CPU &lt;2 cores&gt; &amp; &quot;more&quot;"), std::string::npos);
    EXPECT_NE(html_.find("out of memory, &quot;cudaMalloc&quot;\nat step 3 — Ünïcode"),
              std::string::npos);
    EXPECT_NE(html_.find("abc1234"), std::string::npos);  // git revision
    EXPECT_NE(html_.find("NVIDIA Test GPU"), std::string::npos);
}

TEST_F(ReportHtml, DrawsEachTracedRunsOpsUnderBothRoofs) {
    EXPECT_EQ(html_.find("<h2>Roofline</h2>"), std::string::npos) << "no rooflines given";
    const ResultsDatabase db(dir_ / "results.db", OpenMode::ReadOnly);
    ReportSelection selection = ReportSelection::nothing();
    selection.breakdowns = true;  // the rooflines come with the breakdowns
    HtmlReportInput input = input_;
    input.rooflines = build_report_tables(db, input.runs, selection, {}).rooflines;
    ASSERT_FALSE(input.rooflines.empty());
    const std::string html = render_html_report(input);
    EXPECT_NE(html.find("<h2>Roofline</h2>"), std::string::npos);
    // The fixture's conv_fwd: 3.2 MFLOP over 40 kB, 80 FLOP/byte, above the ridge of
    // 19.5 TFLOP/s over 1555 GB/s (12.5 FLOP/byte): compute-bound.
    EXPECT_NE(html.find("<polyline class=\"roof\""), std::string::npos);
    EXPECT_NE(html.find("<circle class=\"op\""), std::string::npos);
    EXPECT_NE(html.find("conv_fwd (convolution): 80 FLOP/byte"), std::string::npos);
    EXPECT_NE(html.find("compute-bound"), std::string::npos);
}

TEST_F(ReportHtml, FlagsRunsMeasuredOnABusyMachine) {
    EXPECT_EQ(html_.find("busy host"), std::string::npos) << "the fixture's runs are clean";
    HtmlReportInput busy = input_;
    ASSERT_FALSE(busy.runs.empty());
    busy.runs.front().metrics.push_back({"host_other_cpu_pct", 63.0, "%"});
    const std::string html = render_html_report(busy);
    EXPECT_NE(html.find("ok (busy host)"), std::string::npos);
    EXPECT_NE(html.find("<p class=\"warn\">Run "), std::string::npos);
    EXPECT_NE(html.find("used 63.0 % of its CPU time"), std::string::npos);
}

TEST_F(ReportHtml, ParsesWithEveryChart) {
    // Python's html.parser as an independent reader: balanced svg/table elements, and the
    // charts by their titles.
    const auto parsed = testing::run_command(
        "PYTHONIOENCODING=utf-8 python3 -c 'import sys\n"
        "from html.parser import HTMLParser\n"
        "class P(HTMLParser):\n"
        "  def __init__(s):\n"
        "    super().__init__(); s.stack=[]; s.svgs=0; s.labels=[]; s.rects=0; s.errors=0\n"
        "  def handle_starttag(s, tag, attrs):\n"
        "    a=dict(attrs)\n"
        "    if tag==\"svg\": s.svgs+=1; s.labels.append(a.get(\"aria-label\"))\n"
        "    if tag in (\"rect\",\"circle\"): s.rects+=1\n"
        "    if tag not in (\"meta\",\"line\",\"rect\",\"circle\",\"path\",\"polyline\",\"br\"): "
        "s.stack.append(tag)\n"
        "  def handle_startendtag(s, tag, attrs):\n"
        "    if tag==\"svg\": s.svgs+=1\n"
        "  def handle_endtag(s, tag):\n"
        "    if tag in (\"line\",\"rect\",\"circle\",\"path\",\"polyline\"): return\n"
        "    if not s.stack or s.stack.pop()!=tag: s.errors+=1\n"
        "p=P(); p.feed(open(sys.argv[1], encoding=\"utf-8\").read()); p.close()\n"
        "print(\"svgs\", p.svgs); print(\"errors\", p.errors+len(p.stack)); "
        "print(\"marks\", p.rects)\n"
        "for l in p.labels: print(\"chart\", l)\n' " +
        testing::shell_quote(report_.string()));
    ASSERT_EQ(parsed.exit_code, 0) << parsed.output;
    const std::string& out = parsed.output;
    EXPECT_NE(out.find("svgs 4\n"), std::string::npos) << out;
    EXPECT_NE(out.find("errors 0\n"), std::string::npos) << out;
    EXPECT_NE(out.find("chart Throughput against batch size, per precision"), std::string::npos)
        << out;
    EXPECT_NE(out.find("chart Step time per cell (measured steps)"), std::string::npos) << out;
    EXPECT_NE(out.find("chart GPU time by kernel category per traced cell"), std::string::npos)
        << out;
    EXPECT_NE(out.find("chart Peak memory per memory strategy"), std::string::npos) << out;
}

TEST_F(ReportHtml, ChromiumRendersTheChartsWithoutErrors) {
    std::string browser;
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
        if (testing::run_command(std::string("command -v ") + name + " >/dev/null 2>&1")
                .exit_code == 0) {
            browser = name;
            break;
        }
    }
    if (browser.empty()) {
        GTEST_SKIP() << "headless Chromium is not installed (scripts/bootstrap installs the "
                        "Debian package 'chromium'); the HTML report was not rendered";
    }
    const auto png = dir_ / "report.png";
    const auto shot = testing::run_command(
        "cd " + testing::shell_quote(dir_.path().string()) +
        " && HOME=" + testing::shell_quote(dir_.path().string()) + " timeout 60 " + browser +
        " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run "
        "--enable-logging=stderr --v=0 "
        "--window-size=1200,2000 --screenshot=" +
        testing::shell_quote(png.string()) + " " +
        testing::shell_quote("file://" + report_.string()) + " 2>&1");
    ASSERT_EQ(shot.exit_code, 0) << shot.output;
    ASSERT_TRUE(std::filesystem::exists(png)) << shot.output;
    // The page has no scripts and no network references: Chromium logs no console error,
    // no blocked or failed request.
    for (const char* bad : {"Uncaught", "net::ERR_", "Refused to", "Failed to load resource"})
        EXPECT_EQ(shot.output.find(bad), std::string::npos) << bad << " in: " << shot.output;
    if (const char* keep = std::getenv("TRAINSCOPE_KEEP_REPORT_DIR")) {  // to look at it
        for (const auto& file : {report_, png}) {
            std::filesystem::copy_file(file, std::filesystem::path(keep) / file.filename(),
                                       std::filesystem::copy_options::overwrite_existing);
        }
    }
    // Decode the PNG with zlib in Python (no PIL needed) and count colours: the charts'
    // palette makes many; a blank or error page has a handful.
    const auto colours = testing::run_command(
        "python3 -c 'import sys,zlib,struct\n"
        "d=open(sys.argv[1],\"rb\").read(); assert d[:8]==b\"\\x89PNG\\r\\n\\x1a\\n\"\n"
        "i=8; idat=b\"\"\n"
        "while i<len(d):\n"
        "  n,t=struct.unpack(\">I4s\",d[i:i+8]); c=d[i+8:i+8+n]; i+=12+n\n"
        "  if t==b\"IHDR\": w,h,bd,ct=struct.unpack(\">IIBB\",c[:10])\n"
        "  if t==b\"IDAT\": idat+=c\n"
        "assert bd==8 and ct in (2,6), (bd,ct)\n"
        "bpp=3 if ct==2 else 4; raw=zlib.decompress(idat); stride=w*bpp\n"
        "prev=bytearray(stride); seen=set(); pos=0\n"
        "for y in range(h):\n"
        "  f=raw[pos]; line=bytearray(raw[pos+1:pos+1+stride]); pos+=1+stride\n"
        "  for x in range(stride):\n"
        "    a=line[x-bpp] if x>=bpp else 0; b=prev[x]; c=prev[x-bpp] if x>=bpp else 0\n"
        "    if f==1: line[x]=(line[x]+a)&255\n"
        "    elif f==2: line[x]=(line[x]+b)&255\n"
        "    elif f==3: line[x]=(line[x]+(a+b)//2)&255\n"
        "    elif f==4:\n"
        "      p=a+b-c; pa=abs(p-a); pb=abs(p-b); pc=abs(p-c)\n"
        "      line[x]=(line[x]+(a if pa<=pb and pa<=pc else b if pb<=pc else c))&255\n"
        "  if y%4==0: seen.update(bytes(line[k:k+3]) for k in range(0,stride,bpp*2))\n"
        "  prev=line\n"
        "print(w,h,len(seen))\n' " +
        testing::shell_quote(png.string()));
    ASSERT_EQ(colours.exit_code, 0) << colours.output;
    unsigned width = 0, height = 0, distinct = 0;
    std::istringstream(colours.output) >> width >> height >> distinct;
    EXPECT_EQ(width, 1200u) << colours.output;
    EXPECT_GT(height, 0u);
    EXPECT_GE(distinct, 20u) << "the screenshot looks blank: " << colours.output;
}

}  // namespace
}  // namespace trainscope::reports
