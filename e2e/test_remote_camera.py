"""The host takes a guest's reply with the camera: Chromium's fake camera films the reply's code as the guest's
page draws it, and the host's page reads it (with the browser's own QR reader, or the vendored decoder where the
browser has none) and connects.

The host runs in a Chromium of its own, started with a fake camera that plays a video file; the file is written once
the guest's reply exists, before the host opens the camera.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserType

from e2e.test_remote import Device, connected, invitation

FRAME = (640, 480)
CODE_SIZE = 420
"""The code's side in the camera's frame, in pixels (a phone held close to a screen)."""

FILMED = """async ([svg, width, height, side]) => {
  // The guest's code as a camera frame sees it: its SVG painted on white, centred, as grey levels (luma).
  const image = new Image();
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = width; canvas.height = height;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, width, height);
  context.drawImage(image, (width - side) / 2, (height - side) / 2, side, side);
  const rgba = context.getImageData(0, 0, width, height).data;
  const luma = new Array(width * height);
  for (let i = 0; i < luma.length; i++) {
    luma[i] = Math.round(0.299 * rgba[4 * i] + 0.587 * rgba[4 * i + 1] + 0.114 * rgba[4 * i + 2]);
  }
  return luma;
}"""


def write_video(path: Path, luma: list[int], frames: int = 5) -> None:
    """A grey video (YUV4MPEG2, 4:2:0) of one still frame, the form Chromium's fake camera plays in a loop."""
    width, height = FRAME
    chroma = bytes([128]) * ((width // 2) * (height // 2) * 2)
    frame = b"FRAME\n" + bytes(luma) + chroma
    path.write_bytes(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * frames)


def test_the_host_scans_the_guests_reply_with_the_camera(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], browser: Browser, base_url: str,
    tmp_path: Path,
) -> None:
    video = tmp_path / "reply.y4m"
    camera_flags = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                    f"--use-file-for-fake-video-capture={video}"]
    launch = {**browser_type_launch_args, "args": [*browser_type_launch_args["args"], *camera_flags]}
    with_camera = browser_type.launch(**launch)
    devices: list[Device] = []
    try:
        host = Device(with_camera, base_url, "host")
        guest = Device(browser, base_url, "guest", (360, 740))
        devices += [host, guest]
        host.context.grant_permissions(["camera"])
        page = host.page
        page.goto("index.html")
        page.wait_for_function("document.documentElement.dataset.state === 'ready'")
        page.locator("#open-setup").click()
        page.locator("label:has(input[value='silver-bars'])").first.click()
        page.click("#play-others")
        guest.page.goto(invitation(page, 1))
        guest.page.locator(".remote-reply-link").wait_for()
        svg = guest.page.locator("#remote-reply .remote-qr svg").evaluate("code => code.outerHTML")
        painter = guest.context.new_page()  # a blank page, where the site's policy does not forbid painting it
        write_video(video, painter.evaluate(FILMED, [svg, *FRAME, CODE_SIZE]))
        painter.close()
        scan = page.locator("#remote-scan")
        assert scan.is_visible(), "a browser with a camera offers to scan the reply"
        scan.click()
        connected(page, guest.page, 1)
        assert page.locator("#remote-video").is_hidden(), "the camera is put away once the code is read"
        problems = [p for device in devices for p in device.problems()]
        assert not problems, "\n".join(problems)
    finally:
        for device in devices:
            device.context.close()
        with_camera.close()
