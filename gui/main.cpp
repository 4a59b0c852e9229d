// trainscope-gui: explore a trainscope results database.
//   trainscope-gui [--run ID] [results.db]
//   trainscope-gui --screenshot out.png [--view timeline|runs|utilization|kernels|compare]
//                  [--run ID] results.db
#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "gui/app/MainWindow.hpp"
#include "gui/app/Screenshot.hpp"

namespace {

struct Options {
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Render a view into a PNG and exit (needs no "
                                                 "display)."),
                                  QStringLiteral("out.png")};
    QCommandLineOption view{
        QStringLiteral("view"),
        QStringLiteral("View to render: timeline, runs, utilization, kernels, compare."),
        QStringLiteral("view"), QStringLiteral("timeline")};
    QCommandLineOption run{QStringLiteral("run"),
                           QStringLiteral("Run id to open (default: the first run with a "
                                          "trace, on the Timeline)."),
                           QStringLiteral("id")};
    QCommandLineOption light{QStringLiteral("light"), QStringLiteral("Light palette.")};
    QCommandLineOption zoom{QStringLiteral("zoom"),
                            QStringLiteral("Fraction of the trace to show, centred (e.g. 0.001)."),
                            QStringLiteral("fraction"), QStringLiteral("1")};
};

void describe(QCommandLineParser& parser, const Options& o) {
    QCoreApplication::setApplicationName(QStringLiteral("trainscope-gui"));
    QCoreApplication::setOrganizationName(QStringLiteral("trainscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1"));
    parser.setApplicationDescription(QStringLiteral("Explore trainscope results databases."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({o.screenshot, o.view, o.run, o.light, o.zoom});
    parser.addPositionalArgument(QStringLiteral("results.db"),
                                 QStringLiteral("Results database to open."));
}

bool has_argument(int argc, char** argv, std::initializer_list<const char*> names) {
    for (int i = 1; i < argc; ++i) {
        for (const char* name : names) {
            if (std::strcmp(argv[i], name) == 0)
                return true;
        }
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o;
    // --help and --version answer without a display: a QApplication would first need a
    // window system, and a user on a headless machine asking for help should get it.
    if (has_argument(argc, argv, {"-h", "--help", "--help-all", "-v", "--version"})) {
        QCoreApplication core(argc, argv);
        QCommandLineParser parser;
        describe(parser, o);
        parser.process(core);  // prints and exits
        return 0;
    }
    // A screenshot needs no window system either: render offscreen unless told otherwise.
    if (has_argument(argc, argv, {"--screenshot"}) && std::getenv("QT_QPA_PLATFORM") == nullptr)
        setenv("QT_QPA_PLATFORM", "offscreen", 0);

    QApplication app(argc, argv);
    QCommandLineParser parser;
    describe(parser, o);
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    QTextStream err(stderr);

    std::optional<std::int64_t> run_id;
    if (parser.isSet(o.run)) {
        bool ok = false;
        run_id = static_cast<std::int64_t>(parser.value(o.run).toLongLong(&ok));
        if (!ok) {
            err << "trainscope-gui: --run needs a run id (a number, as `trainscope report` "
                   "lists them)\n";
            return 2;
        }
    }

    if (parser.isSet(o.screenshot)) {
        if (args.size() != 1) {
            err << "trainscope-gui: --screenshot needs exactly one results database\n";
            return 2;
        }
        trainscope::gui::ScreenshotRequest request;
        request.database = args.front();
        request.output = parser.value(o.screenshot);
        request.view = parser.value(o.view);
        request.dark = !parser.isSet(o.light);
        request.zoom = parser.value(o.zoom).toDouble();
        if (!(request.zoom > 0.0 && request.zoom <= 1.0)) {
            err << "trainscope-gui: --zoom needs a fraction in (0, 1]\n";
            return 2;
        }
        if (run_id)
            request.run = *run_id;
        QString error;
        const int rc = trainscope::gui::takeScreenshot(request, &error);
        if (rc != 0)
            err << "trainscope-gui: " << error << "\n";
        return rc;
    }

    if (run_id && args.isEmpty()) {
        err << "trainscope-gui: --run needs a results database to open\n";
        return 2;
    }
    trainscope::gui::MainWindow window;
    window.show();
    if (!args.isEmpty())
        window.openAndShow(args.front(), run_id);
    return QApplication::exec();
}
