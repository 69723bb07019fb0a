export default function Screen() {
  return <div>realtime</div>;
}
