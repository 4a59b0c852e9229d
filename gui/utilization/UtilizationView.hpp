#pragma once

#include <QWidget>
#include <memory>

#include "gui/timeline/TimeAxisMapping.hpp"
#include "gui/timeline/TimelineData.hpp"

namespace trainscope::gui {

// GPU busy % per device (computed from the trace at the zoom's resolution: one bucket
// per 2 px), a CPU-backend run's compute-thread busy % and the NVML-like counters
// (utilization, memory, power), on the timeline's time axis: same label column, same
// mapping. Each track has y ticks at 0, half and full scale. Under them, a traced run's
// memory lane: the bytes in use per tensor class, stacked (MemoryLane).
class UtilizationView : public QWidget {
    Q_OBJECT
  public:
    // Tracks share the view's height (drag the splitter above it to give them more),
    // never less than kMinTrackHeight each; kTrackHeight is the height they ask for.
    static constexpr int kTrackHeight = 90;
    static constexpr int kMinTrackHeight = 50;
    static constexpr int kBucketPx = 2;
    static constexpr int kAxisHeight = 22;  // time axis below the tracks

    explicit UtilizationView(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const TimelineData> timeline);
    [[nodiscard]] const TimeAxisMapping& mapping() const { return mapping_; }
    [[nodiscard]] int trackCount() const;
    // Height of each of `tracks` tracks in a view of `height` px.
    static int trackHeight(int height, int tracks);
    static void paint(QPainter& painter, const TimelineData& timeline,
                      const TimeAxisMapping& mapping, QSize size, bool dark);
    [[nodiscard]] QImage renderImage(QSize size) const;
    QSize sizeHint() const override;

  public slots:
    void setMapping(const trainscope::gui::TimeAxisMapping& mapping);
    void setDark(bool dark);

  signals:
    void wheelZoom(double factor, double anchor_x);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

  private:
    std::shared_ptr<const TimelineData> data_;
    TimeAxisMapping mapping_;
    bool dark_ = true;
};

}  // namespace trainscope::gui
