// trainscope-gui: explore a trainscope results database.
//   trainscope-gui [results.db]
//   trainscope-gui --screenshot out.png [--view timeline|runs|utilization|kernels|compare]
//                  [--run ID] results.db
#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

#include "gui/app/MainWindow.hpp"
#include "gui/app/Screenshot.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("trainscope-gui"));
    QApplication::setOrganizationName(QStringLiteral("trainscope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Explore trainscope results databases."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render a view into a PNG and exit."),
                                        QStringLiteral("out.png"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("View to render: timeline, runs, utilization, kernels, compare."),
        QStringLiteral("view"), QStringLiteral("timeline"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run id to show."),
                                 QStringLiteral("id"));
    const QCommandLineOption light(QStringLiteral("light"), QStringLiteral("Light palette."));
    const QCommandLineOption zoom(
        QStringLiteral("zoom"),
        QStringLiteral("Fraction of the trace to show, centred (e.g. 0.001)."),
        QStringLiteral("fraction"), QStringLiteral("1"));
    parser.addOptions({screenshot, view, run, light, zoom});
    parser.addPositionalArgument(QStringLiteral("results.db"),
                                 QStringLiteral("Results database to open."));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    QTextStream err(stderr);

    if (parser.isSet(screenshot)) {
        if (args.size() != 1) {
            err << "trainscope-gui: --screenshot needs exactly one results database\n";
            return 2;
        }
        trainscope::gui::ScreenshotRequest request;
        request.database = args.front();
        request.output = parser.value(screenshot);
        request.view = parser.value(view);
        request.dark = !parser.isSet(light);
        request.zoom = parser.value(zoom).toDouble();
        if (!(request.zoom > 0.0 && request.zoom <= 1.0)) {
            err << "trainscope-gui: --zoom needs a fraction in (0, 1]\n";
            return 2;
        }
        if (parser.isSet(run)) {
            bool ok = false;
            request.run = parser.value(run).toLongLong(&ok);
            if (!ok) {
                err << "trainscope-gui: --run needs a number\n";
                return 2;
            }
        }
        QString error;
        const int rc = trainscope::gui::takeScreenshot(request, &error);
        if (rc != 0)
            err << "trainscope-gui: " << error << "\n";
        return rc;
    }

    trainscope::gui::MainWindow window;
    window.show();
    if (!args.isEmpty())
        window.openDatabase(args.front());
    return QApplication::exec();
}
