#include "gui/app/Theme.hpp"

#include <QApplication>
#include <QHashFunctions>
#include <QStyle>
#include <QStyleFactory>
#include <iterator>

namespace trainscope::gui {

namespace {

Theme make_dark() {
    Theme t;
    t.dark = true;
    t.background = QColor(0x1e, 0x20, 0x24);
    t.lane_alt = QColor(0x24, 0x27, 0x2c);
    t.label_background = QColor(0x2b, 0x2e, 0x34);
    t.text = QColor(0xe6, 0xe6, 0xe6);
    t.dim_text = QColor(0x9a, 0xa0, 0xa8);
    t.grid = QColor(0x36, 0x3a, 0x41);
    t.ruler = QColor(0x30, 0x33, 0x39);
    t.separator = QColor(0x45, 0x49, 0x52);
    t.highlight = QColor(0xff, 0xe0, 0x40);
    t.selection = QColor(0x60, 0xa0, 0xff, 60);
    return t;
}

Theme make_light() {
    Theme t;
    t.dark = false;
    t.background = QColor(0xfb, 0xfb, 0xfc);
    t.lane_alt = QColor(0xf0, 0xf2, 0xf5);
    t.label_background = QColor(0xe8, 0xea, 0xee);
    t.text = QColor(0x20, 0x22, 0x26);
    t.dim_text = QColor(0x60, 0x66, 0x70);
    t.grid = QColor(0xdd, 0xe0, 0xe5);
    t.ruler = QColor(0xe4, 0xe6, 0xea);
    t.separator = QColor(0xc4, 0xc8, 0xd0);
    t.highlight = QColor(0xd0, 0x30, 0x00);
    t.selection = QColor(0x30, 0x70, 0xe0, 50);
    return t;
}

}  // namespace

const Theme& Theme::get(bool dark) {
    static const Theme kDark = make_dark();
    static const Theme kLight = make_light();
    return dark ? kDark : kLight;
}

bool Theme::isLight(const QColor& c) {
    return c.red() * 299 + c.green() * 587 + c.blue() * 114 > 140000;
}

QPalette Theme::widgetPalette() const {
    if (!dark)
        return QApplication::style()->standardPalette();
    QPalette p;
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, label_background);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, background);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x29, 0x2e));
    p.setColor(QPalette::ToolTipBase, QColor(0x32, 0x35, 0x3b));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, label_background);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x60, 0xa0, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6e, 0xb8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x94, 0x9a));
    p.setColor(QPalette::Disabled, QPalette::Text, disabled);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, disabled);
    return p;
}

void applyPalette(bool dark) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(Theme::get(dark).widgetPalette());
}

QColor category_color(Category category) {
    switch (category) {
        case Category::Conv:
            return QColor(0x3d, 0x7e, 0xdb);  // blue
        case Category::Gemm:
            return QColor(0x8e, 0x5c, 0xd6);  // purple
        case Category::Elementwise:
            return QColor(0x3f, 0xb5, 0x6b);  // green
        case Category::Reduction:
            return QColor(0x1f, 0xa8, 0xa8);  // teal
        case Category::Normalization:
            return QColor(0x9a, 0xc2, 0x3c);  // olive
        case Category::Optimizer:
            return QColor(0xf0, 0x8c, 0x28);  // orange
        case Category::OtherKernel:
            return QColor(0x8a, 0x94, 0xa6);  // slate
        case Category::Communication:
            return QColor(0xd4, 0xa0, 0x17);  // gold
        case Category::Memcpy:
            return QColor(0xe0, 0x4a, 0x4a);  // red
        case Category::Memset:
            return QColor(0xe8, 0x6f, 0xb8);  // pink
        case Category::Sync:
            return QColor(0xc9, 0x3a, 0x3a);
        case Category::RuntimeApi:
            return QColor(0xb8, 0xa6, 0x58);  // khaki
        case Category::Nvtx:
            return QColor(0x6a, 0x9b, 0xc4);
        case Category::HostOp:
            return QColor(0x7c, 0x8c, 0x5c);
        case Category::Overhead:
            return QColor(0x60, 0x60, 0x60);
    }
    return Qt::gray;
}

QColor nvtx_color(const QString& name) {
    const auto h = static_cast<int>(qHash(name) % 360U);
    return QColor::fromHsv(h, 110, 210);
}

QColor host_op_color(const QString& name) {
    // Muted, within 60 degrees of hue: a deep Python stack stays calm to read.
    const auto h = static_cast<int>(qHash(name) % 60U);
    return QColor::fromHsv(60 + h, 70, 150);
}

QColor seriesColor(int index) {
    static const QColor kColors[] = {QColor(0x3d, 0x7e, 0xdb), QColor(0xf0, 0x8c, 0x28),
                                     QColor(0x3f, 0xb5, 0x6b), QColor(0xe0, 0x4a, 0x4a),
                                     QColor(0x8e, 0x5c, 0xd6), QColor(0x1f, 0xa8, 0xa8),
                                     QColor(0xe8, 0x6f, 0xb8), QColor(0x9a, 0xc2, 0x3c)};
    return kColors[static_cast<std::size_t>(index) % std::size(kColors)];
}

}  // namespace trainscope::gui
