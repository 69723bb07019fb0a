export default function Screen() {
  return <div>assets</div>;
}
