#include "gui/app/RecentFilesMenu.hpp"

#include <QMenu>
#include <QSettings>
#include <QStringList>

namespace trainscope::gui {

namespace {
constexpr int kMaxRecent = 8;
const QString kKey = QStringLiteral("recentFiles");
}  // namespace

RecentFilesMenu::RecentFilesMenu(QMenu* menu, std::function<void(const QString&)> open,
                                 QObject* parent)
    : QObject(parent), menu_(menu), open_(std::move(open)) {
    rebuild();
}

void RecentFilesMenu::add(const QString& absolute_path) {
    QSettings settings;
    QStringList recent = settings.value(kKey).toStringList();
    recent.removeAll(absolute_path);
    recent.prepend(absolute_path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kKey, recent);
    rebuild();
}

void RecentFilesMenu::rebuild() {
    menu_->clear();
    const QStringList recent = QSettings().value(kKey).toStringList();
    for (const QString& path : recent)
        menu_->addAction(path, this, [this, path] { open_(path); });
    menu_->setEnabled(!recent.isEmpty());
}

}  // namespace trainscope::gui
