export default function Screen() {
  return <div>artifacts</div>;
}
