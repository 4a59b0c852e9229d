#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QMenu;

namespace trainscope::gui {

// File › Open recent: the last eight databases opened, newest first, kept in QSettings
// ("recentFiles") so they survive a restart.
class RecentFilesMenu : public QObject {
    Q_OBJECT
  public:
    // `menu` is filled and refilled; `open` is called with the path a user picks.
    RecentFilesMenu(QMenu* menu, std::function<void(const QString&)> open, QObject* parent);
    void add(const QString& absolute_path);

  private:
    void rebuild();

    QMenu* menu_;
    std::function<void(const QString&)> open_;
};

}  // namespace trainscope::gui
