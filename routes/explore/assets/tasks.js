// The tasks playground's only script: "watch the task move". A task page that expects a change says
// when (the API's poll_after_s, in data-poll-after); this reloads the page then, and shows a countdown
// with a button to stop. Without JavaScript the page has a Refresh link instead.
const watch = document.getElementById('watch');
if (watch) {
  let left = Math.max(1, Number(watch.dataset.pollAfter) || 5);
  const status = document.createElement('span');
  const stop = document.createElement('button');
  stop.type = 'button';
  stop.textContent = 'Stop watching';
  watch.append(' ', status, ' ', stop);
  const show = () => {
    status.textContent = `Watching: this page reloads in ${left} s.`;
  };
  show();
  const timer = setInterval(() => {
    left -= 1;
    if (left <= 0) {
      clearInterval(timer);
      status.textContent = 'Reloading…';
      location.reload();
      return;
    }
    show();
  }, 1000);
  stop.addEventListener('click', () => {
    clearInterval(timer);
    status.textContent = 'Stopped watching.';
    stop.remove();
  });
}
