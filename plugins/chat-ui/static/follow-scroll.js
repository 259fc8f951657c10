// The conversation follows the stream while the reader is at the bottom. Scrolling up stops that
// and shows a button that jumps back down (and follows again).
const NEAR_BOTTOM_PX = 48;

export class FollowScroll {
  /** @param {HTMLElement} scroller @param {HTMLButtonElement} jump */
  constructor(scroller, jump) {
    this.scroller = scroller;
    this.jump = jump;
    this.following = true;
    scroller.addEventListener("scroll", () => {
      this.following = this.nearBottom();
      if (this.following) jump.hidden = true;
    });
    jump.addEventListener("click", () => this.toBottom());
  }

  nearBottom() {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < NEAR_BOTTOM_PX;
  }

  /** After the content grew. */
  update() {
    if (this.following) this.scroller.scrollTop = this.scroller.scrollHeight;
    else this.jump.hidden = false;
  }

  toBottom() {
    this.following = true;
    this.jump.hidden = true;
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }
}
