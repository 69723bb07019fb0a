export default function Screen() {
  return <div>settings</div>;
}
