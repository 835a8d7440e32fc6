"""Writes hardware/wiring.svg, the wiring drawing of the board (run: python hardware/make_drawing.py)."""

import pathlib

W, H = 1040, 700
UNO = (40, 300, 300, 200)  # x, y, w, h
BOARD = (400, 150, 600, 470)
# light, pin, colour, resistor, (x, y) on the table board
LEDS = [
    ("B legal", "D4", "#2ca02c", "220", (620, 230)),
    ("B illegal", "D5", "#d62728", "330", (720, 230)),
    ("pile 0, B side", "D7", "#e6b800", "330", (520, 300)),
    ("pile 1, B side", "D10", "#e6b800", "330", (880, 300)),
    ("centre (stall / countdown)", "D11", "#bbbbbb", "220", (700, 385)),
    ("pile 0, A side", "D6", "#1f5fd6", "220", (520, 470)),
    ("pile 1, A side", "D8", "#1f5fd6", "220", (880, 470)),
    ("A legal", "D2", "#2ca02c", "220", (620, 550)),
    ("A illegal", "D3", "#d62728", "330", (720, 550)),
]
BUZZER = ("piezo", "D9", (960, 550))
PINS = ["D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D12", "D13", "GND"]


def pin_x(pin: str) -> float:
    return UNO[0] + 22 + PINS.index(pin) * 21.5


def main() -> None:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="13">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           '<text x="20" y="30" font-size="20" font-weight="bold">Spit referee board: wiring (Arduino Uno / Nano, ATmega328P)</text>',
           '<text x="20" y="52">Each light: Arduino pin -> resistor -> LED anode (long leg); LED cathode -> GND rail. '
           'Piezo: D9 -> 100 ohm -> piezo -> GND.</text>']
    x, y, w, h = UNO
    out += [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="10" fill="#0f7d8c" stroke="#064a52" stroke-width="2"/>',
            f'<text x="{x + 70}" y="{y + 110}" fill="white" font-size="22" font-weight="bold">Arduino Uno</text>',
            f'<text x="{x + 75}" y="{y + 135}" fill="white">ATmega328P, 16 MHz</text>',
            f'<rect x="{x - 25}" y="{y + 120}" width="45" height="50" fill="#999" stroke="#555"/>',
            f'<text x="{x - 20}" y="{y + 190}" font-size="11">USB to PC</text>',
            f'<circle cx="{x + w - 30}" cy="{y + 60}" r="6" fill="#ffd21f" stroke="#333"/>',
            f'<text x="{x + w - 80}" y="{y + 82}" fill="white" font-size="11">D13 "L": link</text>']
    for pin in PINS:
        px = pin_x(pin)
        out.append(f'<rect x="{px - 6}" y="{y + 4}" width="12" height="12" fill="#222"/>')
        out.append(f'<text x="{px}" y="{y + 32}" fill="white" font-size="10" text-anchor="middle" '
                   f'transform="rotate(-60 {px} {y + 32})">{pin}</text>')
    bx, by, bw, bh = BOARD
    out += [f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" rx="6" fill="#f4efe6" stroke="#8a7a5c" stroke-width="2"/>',
            f'<text x="{bx + 10}" y="{by + 22}" fill="#6b5a3a">player B sits on this side</text>',
            f'<text x="{bx + 10}" y="{by + bh + 20}" fill="#6b5a3a">player A sits on this side</text>',
            f'<text x="{bx + bw - 215}" y="{by + bh + 20}" fill="#6b5a3a">board face, as player A sees it</text>']
    for pile, px in ((0, 520), (1, 880)):
        out += [f'<rect x="{px - 32}" y="{330}" width="64" height="88" rx="6" fill="none" stroke="#8a7a5c" stroke-dasharray="6 4"/>',
                f'<text x="{px}" y="{378}" text-anchor="middle" fill="#8a7a5c">spit pile {pile}</text>']
    # GND rails along both long edges of the board, joined on the left
    rail_y, top_rail_y = by + bh - 22, by + 40
    for ry in (rail_y, top_rail_y):
        out.append(f'<line x1="{bx + 20}" y1="{ry}" x2="{bx + bw - 20}" y2="{ry}" stroke="#000" stroke-width="3"/>')
        out.append(f'<text x="{bx + bw - 80}" y="{ry - 6}" font-size="11">GND rail</text>')
    gx = pin_x("GND")
    out.append(f'<polyline points="{gx},{y} {gx},{y - 20} {bx - 20},{y - 20} {bx - 20},{rail_y} {bx + 20},{rail_y}" '
               'fill="none" stroke="#000" stroke-width="3"/>')
    out.append(f'<polyline points="{bx - 20},{y - 20} {bx - 20},{top_rail_y} {bx + 20},{top_rail_y}" '
               'fill="none" stroke="#000" stroke-width="3"/>')
    lanes = LEDS + [(BUZZER[0], BUZZER[1], "#7f3fbf", "100", BUZZER[2])]
    for index, (name, pin, colour, ohms, (lx, ly)) in enumerate(lanes):
        lane_y = 80 + index * 7
        px = pin_x(pin)
        wire = "#555" if colour == "#bbbbbb" else colour
        side = 1 if ly >= 470 and name != "piezo" else -1  # lower row: resistor on the right, wires never overlap
        drop = lx + side * 30
        out.append(f'<polyline points="{px},{y + 4} {px},{lane_y} {drop},{lane_y} {drop},{ly}" fill="none" '
                   f'stroke="{wire}" stroke-width="2" stroke-opacity="0.85"/>')
        rx = lx + 14 if side > 0 else lx - 30
        out.append(f'<rect x="{rx}" y="{ly - 5}" width="16" height="10" fill="white" stroke="#333"/>')
        out.append(f'<text x="{rx + 8}" y="{ly - 9}" font-size="10" text-anchor="middle">{ohms}</text>')
        if name == "piezo":
            out.append(f'<circle cx="{lx}" cy="{ly}" r="14" fill="#333"/><circle cx="{lx}" cy="{ly}" r="4" fill="#777"/>')
            out.append(f'<text x="{lx}" y="{ly - 20}" text-anchor="middle" font-size="11">piezo (passive)</text>')
        else:
            out.append(f'<circle cx="{lx}" cy="{ly}" r="11" fill="{colour}" stroke="#333" stroke-width="1.5"/>')
            out.append(f'<text x="{lx}" y="{ly + 26}" text-anchor="middle" font-size="11">{name}</text>')
        to_top = ly < 320
        out.append(f'<line x1="{lx}" y1="{ly - 11 if to_top else ly + 11}" x2="{lx}" y2="{top_rail_y if to_top else rail_y}" '
                   'stroke="#000" stroke-width="1" stroke-dasharray="2 3"/>')
        if side > 0:
            out.append(f'<text x="{lx + 38}" y="{ly + 4}" font-size="10">{pin}</text>')
        else:
            out.append(f'<text x="{lx - 38}" y="{ly + 4}" font-size="10" text-anchor="end">{pin}</text>')
    legend_y = 560
    out += [f'<text x="40" y="{legend_y}" font-weight="bold">Colours</text>',
            f'<text x="40" y="{legend_y + 20}">green = legal play, red = illegal play (per player)</text>',
            f'<text x="40" y="{legend_y + 40}">blue = player A, yellow = player B, at each spit</text>',
            f'<text x="40" y="{legend_y + 58}">  pile: first to touch, who takes it after a slap</text>',
            f'<text x="40" y="{legend_y + 78}">white centre = stall, re-spit countdown, round end</text>',
            f'<text x="40" y="{legend_y + 98}">resistors in ohms: 5 V, about 9 mA per LED</text>']
    out.append("</svg>")
    (pathlib.Path(__file__).parent / "wiring.svg").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
