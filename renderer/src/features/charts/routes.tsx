export default function Screen() {
  return <div>charts</div>;
}
